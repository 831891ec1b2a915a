// trc_sim_mp: simulation wrapper around trc_mpcore for the Verilator harness.
// Brings out, beside the core's ports, what the harness needs to check the
// stream bit for bit and the broadcasts against the C model: each record the
// arbiter hands to the coder (its CPU and raw record), and each marker or
// control record written into the time-stampers (to which CPUs, which record),
// and for the directed probes of the broadcast's ready rule: each CPU's
// time-stamper writes, CPU 0's FIFO occupancy, and the clocks in which the
// rule's "TIME_EXT falling due" term decides (docs/rtl.md "Markers,
// start/stop and drain"), and for those of the shared whole-record counts:
// the clocks in which a time-stamper writes a whole TIME_EXT or LOST record
// while a step up of the same count waits in trc_wholes.
// Parameters: those of trc_mpcore; REC_W, INFO_W derived, do not set.
`default_nettype none
`include "trc_format.vh"

module trc_sim_mp #(
    parameter NT        = 23,
    parameter FID_W     = 15,
    parameter TYPE_W    = 7,
    parameter VAL_W     = 16,
    parameter ND_F      = 3,
    parameter ND_T      = 3,
    parameter ND_V      = 3,
    parameter OUT_W     = 64,
    parameter NCPU      = 2,
    parameter BURST     = 16,
    parameter PRESCALE  = 1,
    parameter FIFO_AW   = 4,
    parameter MARK_WAIT = 32,
    parameter INFO_W    = `TRC_INFO_W(FID_W, TYPE_W, VAL_W),
    parameter REC_W     = 1 + NT + INFO_W
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire [NCPU-1:0]        ev_valid,
    input  wire [NCPU-1:0]        ev_os,
    input  wire [NCPU*INFO_W-1:0] ev_info,
    input  wire                   flush,
    output wire [NCPU-1:0]        drop,
    input  wire                   mark,
    input  wire [VAL_W-1:0]       mark_value,
    input  wire                   start,
    input  wire                   stop,
    output wire [NCPU-1:0]        tracing,
    output wire [OUT_W-1:0]       m_axis_tdata,
    output wire [OUT_W/8-1:0]     m_axis_tkeep,
    output wire                   m_axis_tlast,
    output wire                   m_axis_tvalid,
    input  wire                   m_axis_tready,
    // ---- observation
    output wire                   tap_valid,  // a record enters the coder
    output wire [7:0]             tap_cpu,
    output wire [REC_W-1:0]       tap_rec,
    output wire [NCPU-1:0]        bc_put,     // a broadcast record goes to these
    output wire [INFO_W-1:0]      bc_info,    // ... with this info field
    output wire [NCPU-1:0]        ts_wr,      // CPU k's time-stamper writes a record
    output wire [FIFO_AW:0]       occ0,       // CPU 0's FIFO occupancy
    output wire                   due_case,   // the broadcast would be ready next
                                              // clock but for a TIME_EXT falling due
    output wire                   whole_both  // trc_wholes: a whole record written
                                              // while a step up of its count waits
);

    trc_mpcore #(
        .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
        .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .NCPU(NCPU),
        .BURST(BURST), .PRESCALE(PRESCALE), .FIFO_AW(FIFO_AW), .MARK_WAIT(MARK_WAIT)
    ) u_core (
        .clk(clk), .rst(rst),
        .ev_valid(ev_valid), .ev_os(ev_os), .ev_info(ev_info), .flush(flush), .drop(drop),
        .mark(mark), .mark_value(mark_value), .start(start), .stop(stop), .tracing(tracing),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tlast(m_axis_tlast),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready)
    );

    // the coder's input: the record taken, made whole, and its CPU
    assign tap_valid = u_core.u_enc.in_valid && u_core.u_enc.in_ready;
    assign tap_rec   = u_core.u_enc.in_rec[REC_W-1:0];
    generate
        if (NCPU > 1) begin : g_tap_cpu
            localparam CPW = $clog2(NCPU);
            assign tap_cpu = {{(8 - CPW){1'b0}}, u_core.u_enc.in_rec[REC_W +: CPW]};
        end else begin : g_tap_one
            assign tap_cpu = 8'd0;
        end
    endgenerate
    assign bc_put    = u_core.put;
    assign bc_info   = u_core.b_info;
    assign occ0      = u_core.g_cpu[0].u_fifo.used;
    generate
        if (NCPU > 1) begin : g_both
            assign whole_both = u_core.g_wholes.u_wholes.pw && u_core.g_wholes.u_wholes.dn;
        end else begin : g_both_none
            assign whole_both = 1'b0;
        end
    endgenerate

    // due_case: the broadcast is pending and does not go now, every CPU of
    // its mask can write it now, none has an event of its own next clock (or
    // the wait ends), and a TIME_EXT of one of them falls due now: only the
    // rule's due term keeps it from going next clock, into a time-stamper
    // that will then have a TIME_EXT waiting. (Made from the time-stampers'
    // own `due`, not from the term, so a build without the term still counts
    // the case.)
    wire [NCPU-1:0] ts_due;
    genvar g;
    generate
        for (g = 0; g < NCPU; g = g + 1) begin : g_obs
            assign ts_due[g] = u_core.g_cpu[g].ts_due;
            assign ts_wr[g]  = u_core.g_cpu[g].ts_valid;
        end
    endgenerate
    assign due_case = u_core.bv_q && !u_core.go &&
                      (u_core.bmask_q & ~u_core.bc_ok) == {NCPU{1'b0}} &&
                      (u_core.bmask_q & u_core.bc_ok & ts_due) != {NCPU{1'b0}} &&
                      ((u_core.bmask_q & u_core.ev_d & u_core.en_q) == {NCPU{1'b0}} ||
                       u_core.bwait_q <= 8'd1);

endmodule

`resetall
