// trc_core_dc: trc_core for a CPU on another clock: trc_evcdc (the
// dual-clock front end) -> trc_core. The CPU's events enter on ev_clk; the
// time-stamper, FIFO, encoder and output run on clk. Events are time-stamped
// when they leave the crossing, on clk (docs/rtl.md, "Dual-clock front
// end": latency, what a full crossing FIFO does, constraints).
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, OUT_W, MODE, SK, SD,
//   SYNC_EVERY, PRESCALE, FIFO_AW, DT_W - as in trc_core
//   CDC_AW   - crossing FIFO address bits (2^CDC_AW events), 1..16
//   CDC_SYNC - synchronizer flops per crossing, >= 2
//   INFO_W   - derived, do not set: max(1+FID_W, TYPE_W+VAL_W)
`default_nettype none
`include "trc_format.vh"

module trc_core_dc #(
    parameter NT         = 23,
    parameter FID_W      = 15,
    parameter TYPE_W     = 7,
    parameter VAL_W      = 16,
    parameter ND_F       = 3,
    parameter ND_T       = 3,
    parameter ND_V       = 3,
    parameter OUT_W      = 64,
    parameter MODE       = 0,
    parameter SK         = 9,
    parameter SD         = 16,
    parameter SYNC_EVERY = 0,
    parameter PRESCALE   = 1,
    parameter FIFO_AW    = 4,
    parameter DT_W       = 48,
    parameter CDC_AW     = 4,
    parameter CDC_SYNC   = 2,
    parameter INFO_W     = `TRC_INFO_W(FID_W, TYPE_W, VAL_W)
) (
    // ---- events from the CPU, on its clock (never stalled)
    input  wire                 ev_clk,
    input  wire                 ev_valid,
    input  wire                 ev_os,     // 0 function, 1 OS info
    input  wire [INFO_W-1:0]    ev_info,   // layout as trc_enc's info field
    input  wire                 flush,     // pulse: END after the events before it
    output wire                 ev_drop,   // pulse (ev_clk): event dropped at the crossing
    output wire                 ev_rst,    // (ev_clk) the front end is in reset
    // ---- trc's clock
    input  wire                 clk,
    input  wire                 rst,
    output wire                 drop,      // pulse (clk): trc_core dropped a record
    // ---- compressed stream out (clk)
    output wire [OUT_W-1:0]     m_axis_tdata,
    output wire [OUT_W/8-1:0]   m_axis_tkeep,
    output wire                 m_axis_tlast,
    output wire                 m_axis_tvalid,
    input  wire                 m_axis_tready
);

    generate
        `TRC_PARAM_CHECK(CDC_AW >= 1 && CDC_AW <= 16, g_bad_cdc_aw, trc_bad_param_CDC_AW,
                         "trc_core_dc: CDC_AW must be 1..16")
        `TRC_PARAM_CHECK(CDC_SYNC >= 2, g_bad_cdc_sync, trc_bad_param_CDC_SYNC,
                         "trc_core_dc: CDC_SYNC must be >= 2")
    endgenerate

    wire              c_valid, c_os, c_flush;
    wire [INFO_W-1:0] c_info;

    trc_evcdc #(
        .TYPE_W(TYPE_W), .VAL_W(VAL_W), .INFO_W(INFO_W), .AW(CDC_AW), .SYNC_N(CDC_SYNC)
    ) u_cdc (
        .ev_clk(ev_clk), .ev_valid(ev_valid), .ev_os(ev_os), .ev_info(ev_info),
        .ev_flush(flush), .ev_drop(ev_drop), .ev_rst(ev_rst),
        .clk(clk), .rst(rst),
        .o_valid(c_valid), .o_os(c_os), .o_info(c_info), .o_flush(c_flush),
        .o_drop(drop)
    );

    trc_core #(
        .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
        .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W),
        .MODE(MODE), .SK(SK), .SD(SD), .SYNC_EVERY(SYNC_EVERY),
        .PRESCALE(PRESCALE), .FIFO_AW(FIFO_AW), .DT_W(DT_W)
    ) u_core (
        .clk(clk), .rst(rst),
        .ev_valid(c_valid), .ev_os(c_os), .ev_info(c_info), .flush(c_flush),
        .drop(drop),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );

endmodule

`resetall
