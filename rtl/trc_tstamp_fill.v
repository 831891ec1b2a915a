// trc_tstamp_fill: a record of trc_tstamp made whole. The time-stamper writes
// its own records (tag 1) without their fixed fields: the delta of a
// TIME_EXT, always 2^NT-1, and the value of a TIME_EXT or an END, always 0.
// trc_mpenc puts them back after its input register: one select for every
// CPU instead of one in each time-stamper. An event (tag 0) passes
// unchanged, reserved types included.
// Parameters: NT, VAL_W, INFO_W - format widths (as trc_tstamp's)
`default_nettype none

module trc_tstamp_fill #(
    parameter NT     = 23,
    parameter VAL_W  = 16,
    parameter INFO_W = 23
) (
    input  wire             tag,     // the time-stamper made it
    input  wire [NT+INFO_W:0] s_rec, // {os, delta, info}, fields left out
    output wire [NT+INFO_W:0] m_rec  // ... and whole
);

    // A tagged record is a TIME_EXT (type ...11), an END (...10) or a LOST
    // (...00): its two low type bits tell them apart, one LUT level a bit.
    wire [1:0] t2   = s_rec[VAL_W +: 2];
    wire       ext  = tag && t2 == 2'b11;
    wire       zero = tag && t2[1];
    assign m_rec = {s_rec[NT+INFO_W], s_rec[INFO_W +: NT] | {NT{ext}},
                    s_rec[VAL_W +: INFO_W-VAL_W], s_rec[VAL_W-1:0] & {VAL_W{!zero}}};

endmodule

`resetall
