// trc_tstamp_fill: a record of trc_tstamp made whole. The time-stamper writes
// its own records (tag 1) without their fixed fields: the delta of a
// TIME_EXT, always 2^NT-1, and the value of a TIME_EXT or an END, always 0.
// They are put back after the FIFO, where they cost less than the select
// in the time-stamper, and in trc_mpenc after the arbiter: once for every
// CPU. An event (tag 0) passes unchanged, reserved types included.
// Parameters: NT, TYPE_W, VAL_W, INFO_W - format widths (as trc_tstamp's)
`default_nettype none
`include "trc_format.vh"

module trc_tstamp_fill #(
    parameter NT     = 23,
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter INFO_W = 23
) (
    input  wire             tag,     // the time-stamper made it
    input  wire [NT+INFO_W:0] s_rec, // {os, delta, info}, fields left out
    output wire [NT+INFO_W:0] m_rec  // ... and whole
);

    localparam [TYPE_W-1:0] T_EXT = `TRC_T_TIME_EXT(TYPE_W);
    localparam [TYPE_W-1:0] T_END = `TRC_T_END(TYPE_W);

    wire [TYPE_W-1:0] typ  = s_rec[VAL_W +: TYPE_W];
    wire              ext  = tag && typ == T_EXT;
    wire              zero = tag && (typ == T_EXT || typ == T_END);
    assign m_rec = {s_rec[NT+INFO_W], s_rec[INFO_W +: NT] | {NT{ext}},
                    s_rec[VAL_W +: INFO_W-VAL_W], s_rec[VAL_W-1:0] & {VAL_W{!zero}}};

endmodule

`resetall
