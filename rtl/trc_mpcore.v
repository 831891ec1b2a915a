// trc_mpcore: trace compressor for NCPU processors (seed 004, MUSTARD-POT):
// one time-stamper and input FIFO per CPU on one time base, trc_mpenc's
// arbiter and banked coder, one stream out (docs/format.md 4.9). Besides
// the events: a global marker written into every CPU's trace in the same
// clock, and tracing started and stopped for one CPU or all, by any CPU
// (an event of a control type on its port: trc_rvfi's stimulus store) or
// by external pins. A stop writes END after the CPU's last record, so what
// was accepted leaves the core. Every input (events, pins, reset) passes one
// register first, each event's kind decoded before it: the core runs one
// clock behind its ports (drop and tracing answer a clock late), and the
// broadcast decision is a flop. Ports, rules and timing: docs/rtl.md.
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, OUT_W - as in trc_enc
//   NCPU      - CPUs, 1..8
//   BURST     - trc_mpenc's: records in a row from one CPU at most
//   PRESCALE, FIFO_AW, DT_W - as in trc_core, per CPU (one prescaler phase:
//               every CPU's time counts from the same reset)
//   DROP_W    - as in trc_core, per CPU: LOST counts stay exact up to
//               2^DROP_W - 2^(DROP_W-VAL_W) drops in one wait for room
//   STIM      - 1: an OS event of type MARK_TYPE or CTL_TYPE on any port is
//               a request (marker, control), not a record; 0: events only
//   MARK_TYPE - OS type of markers (default 2^TYPE_W-9, trc_rvfi's highest
//               stimulus port); the marker records carry it
//   CTL_TYPE  - OS type of control words (default 2^TYPE_W-10): value bit 0
//               start (1) / stop (0), bit 1 all CPUs, bits 2.. the CPU
//   START     - 1: every CPU traces from reset; 0: none until a start
//   MARK_WAIT - clocks a marker or control record waits for a clock in which
//               no CPU it goes to has an event of its own (then it takes
//               the clock and such an event is lost, counted), 0..255
//   INFO_W    - derived, do not set: max(1+FID_W, TYPE_W+VAL_W)
`default_nettype none
`include "trc_format.vh"

module trc_mpcore #(
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
    parameter DT_W      = 48,
    parameter DROP_W    = 48,
    parameter STIM      = 1,
    parameter MARK_TYPE = (1 << TYPE_W) - 9,
    parameter CTL_TYPE  = (1 << TYPE_W) - 10,
    parameter START     = 1,
    parameter MARK_WAIT = 32,
    parameter INFO_W    = `TRC_INFO_W(FID_W, TYPE_W, VAL_W)
) (
    input  wire                   clk,
    input  wire                   rst,
    // ---- events, CPU k at bit k and [k*INFO_W +: INFO_W] (never stalled)
    input  wire [NCPU-1:0]        ev_valid,
    input  wire [NCPU-1:0]        ev_os,     // 0 function, 1 OS info
    input  wire [NCPU*INFO_W-1:0] ev_info,   // layout as trc_enc's info field
    input  wire                   flush,     // pulse: END on every CPU
    output wire [NCPU-1:0]        drop,      // an event of CPU k was lost (counted)
    // ---- global controls, pulses from pins
    input  wire                   mark,      // a marker into every CPU's trace
    input  wire [VAL_W-1:0]       mark_value,
    input  wire                   start,     // tracing on, every CPU
    input  wire                   stop,      // tracing off, every CPU (and END)
    output wire [NCPU-1:0]        tracing,   // CPU k's events are traced
    // ---- compressed stream out
    output wire [OUT_W-1:0]       m_axis_tdata,
    output wire [OUT_W/8-1:0]     m_axis_tkeep,
    output wire                   m_axis_tlast,
    output wire                   m_axis_tvalid,
    input  wire                   m_axis_tready
);

    localparam REC_W = 1 + NT + INFO_W;
    localparam TRW   = REC_W + 1;           // a FIFO word: {tag, record}
    localparam CW    = NCPU > 1 ? $clog2(NCPU) : 1;
    localparam integer MT_I = MARK_TYPE;
    localparam integer CT_I = CTL_TYPE;
    localparam [TYPE_W-1:0] T_MARK = MT_I[TYPE_W-1:0];
    localparam [TYPE_W-1:0] T_CTL  = CT_I[TYPE_W-1:0];
    localparam integer MW_I = MARK_WAIT;
    localparam [7:0] WAIT0 = MW_I[7:0];

    generate
        `TRC_PARAM_CHECK(PRESCALE >= 1, g_bad_prescale, trc_bad_param_PRESCALE,
                         "trc_mpcore: PRESCALE must be >= 1")
        `TRC_PARAM_CHECK(FIFO_AW >= 1 && FIFO_AW <= 16, g_bad_fifo_aw, trc_bad_param_FIFO_AW,
                         "trc_mpcore: FIFO_AW must be 1..16")
        `TRC_PARAM_CHECK(DT_W > NT && DT_W <= 64, g_bad_dt_w, trc_bad_param_DT_W,
                         "trc_mpcore: DT_W must be NT+1..64")
        `TRC_PARAM_CHECK(DROP_W > VAL_W && DROP_W <= 64, g_bad_drop_w, trc_bad_param_DROP_W,
                         "trc_mpcore: DROP_W must be VAL_W+1..64")
        `TRC_PARAM_CHECK(STIM == 0 || (MARK_TYPE >= 0 && CTL_TYPE >= 0 &&
                         MARK_TYPE < (1 << TYPE_W) - 4 && CTL_TYPE < (1 << TYPE_W) - 4 &&
                         MARK_TYPE != CTL_TYPE), g_bad_types, trc_bad_param_MARK_CTL_TYPE,
                         "trc_mpcore: MARK_TYPE and CTL_TYPE must be two user OS types")
        `TRC_PARAM_CHECK(VAL_W >= 2 + CW, g_bad_val_w_ctl, trc_bad_param_VAL_W_CTL,
                         "trc_mpcore: VAL_W must hold a control word (2 + CPU bits)")
        `TRC_PARAM_CHECK(MARK_WAIT >= 0 && MARK_WAIT <= 255, g_bad_wait,
                         trc_bad_param_MARK_WAIT, "trc_mpcore: MARK_WAIT must be 0..255")
    endgenerate

    function [INFO_W-1:0] os_info(input [TYPE_W-1:0] t, input [VAL_W-1:0] v);
        os_info = {{(INFO_W-TYPE_W-VAL_W){1'b0}}, t, v};
    endfunction

    // ---- the input register: every port and pin a clock late, the reset
    // with them (it also acts at once, so no state leaves reset while the
    // pin is high). A port's event is decoded before the register (a marker
    // or control request, or an event to trace), so that the broadcast
    // decision of the next clock is made from it in this one.
    reg  [NCPU-1:0]        req_d, ctl_d, ev_d;
    reg  [NCPU-1:0]        req_q, ctl_q, ev_q;   // request, a control one, an event
    reg  [NCPU-1:0]        os_q;
    reg  [NCPU*INFO_W-1:0] info_q;
    reg                    rst_q, flush_q, mark_q, start_q, stop_q;
    reg  [VAL_W-1:0]       markv_q;
    wire                   rst_c = rst || rst_q;  // the core's reset
    integer k;
    always @* begin
        for (k = 0; k < NCPU; k = k + 1) begin
            ctl_d[k] = ev_info[k*INFO_W+VAL_W +: TYPE_W] == T_CTL;
            req_d[k] = STIM != 0 && ev_valid[k] && ev_os[k] &&
                       (ev_info[k*INFO_W+VAL_W +: TYPE_W] == T_MARK || ctl_d[k]);
            ev_d[k]  = ev_valid[k] && !req_d[k];
        end
    end
    always @(posedge clk) begin
        rst_q   <= rst;
        ctl_q   <= ctl_d;
        os_q    <= ev_os;
        info_q  <= ev_info;
        markv_q <= mark_value;
        if (rst) begin
            req_q   <= {NCPU{1'b0}};
            ev_q    <= {NCPU{1'b0}};
            flush_q <= 1'b0;
            mark_q  <= 1'b0;
            start_q <= 1'b0;
            stop_q  <= 1'b0;
        end else begin
            req_q   <= req_d;
            ev_q    <= ev_d;
            flush_q <= flush;
            mark_q  <= mark;
            start_q <= start;
            stop_q  <= stop;
        end
    end

    // ---- requests: a marker or control event on a port, the pins
    reg  [NCPU-1:0] en_q;                   // tracing on, per CPU
    wire [NCPU-1:0] req    = req_q;
    wire [NCPU-1:0] normal = ev_q & en_q;

    // ---- the broadcast: one marker or control record pending at a time,
    // written into the CPUs of its mask in one clock: the first clock in
    // which it is ready and none of them has an event of its own, or after
    // MARK_WAIT clocks of waiting, the first in which it is ready (an event
    // of that clock is lost). It is ready when it was pending in the clock
    // before and, in that clock, every CPU of its mask had room in its FIFO
    // and no TIME_EXT waiting or falling due. So the decision is a flop
    // (go_q), made in the clock before from that clock's flops and the
    // decoded events at the input register: not a function of this clock's
    // FIFO and time-stamper state, which the broadcast itself writes. While
    // it is pending, its CPUs keep their FIFO's last free entry for it
    // (their own records wait or drop), so room in one clock is room in the
    // next, and under any load each of them soon has that entry free: the
    // broadcast never starves. It goes before a LOST that waits.
    reg              bv_q;                  // pending
    reg              bc_q;                  // a control word (else a marker)
    reg  [VAL_W-1:0] bval_q;
    reg  [NCPU-1:0]  bmask_q;
    reg  [7:0]       bwait_q;               // clocks left to wait
    reg              xm_q, xs_q, xp_q;      // pin requests waiting
    reg  [VAL_W-1:0] xmv_q;
    reg              go_q;                  // it goes now (decided in the clock before)
    wire [NCPU-1:0]  bc_ok;                 // CPU k can write a broadcast now
    wire [NCPU-1:0]  bc_nx;                 // ... and next clock, if it waits now
    wire             go = go_q;
    wire [NCPU-1:0]  put = {NCPU{go}} & bmask_q;   // the broadcast goes to these now
    wire [INFO_W-1:0] b_info = os_info(bc_q ? T_CTL : T_MARK, bval_q);
    // the control word's target: every CPU, or the one named (none past NCPU)
    function [NCPU-1:0] ctl_mask(input all, input [VAL_W-3:0] cpu);
        integer j;
        begin
            for (j = 0; j < NCPU; j = j + 1)
                ctl_mask[j] = all || cpu == j[VAL_W-3:0];
        end
    endfunction

    // the request taken when the engine is free: the lowest port's, else a
    // pin's (they wait); every other port request of the clock is lost
    reg              take, take_c;
    reg  [VAL_W-1:0] take_v;
    reg  [NCPU-1:0]  lost_req;
    reg              from_pin;
    always @* begin
        take     = 1'b0;
        take_c   = 1'b0;
        take_v   = {VAL_W{1'b0}};
        from_pin = 1'b0;
        lost_req = req;
        for (k = NCPU - 1; k >= 0; k = k - 1) begin
            if (req[k] && (!bv_q || go)) begin
                take   = 1'b1;
                take_c = ctl_q[k];
                take_v = info_q[k*INFO_W +: VAL_W];
            end
        end
        if (take) begin
            for (k = 0; k < NCPU; k = k + 1)
                if (req[k] && (req & ((1 << k) - 1)) == {NCPU{1'b0}})
                    lost_req[k] = 1'b0;
        end else if (!bv_q || go) begin
            if (xp_q || xs_q) begin
                take     = 1'b1;
                take_c   = 1'b1;
                take_v   = {{(VAL_W-2){1'b0}}, 1'b1, !xp_q}; // all CPUs; stop first
                from_pin = 1'b1;
            end else if (xm_q) begin
                take     = 1'b1;
                take_v   = xmv_q;
                from_pin = 1'b1;
            end
        end
    end

    reg [NCPU-1:0] fl_q;                    // END after a stop, per CPU
    always @(posedge clk) begin
        if (take) begin
            bc_q    <= take_c;
            bval_q  <= take_v;
            bmask_q <= take_c ? ctl_mask(take_v[1], take_v[VAL_W-1:2]) : {NCPU{1'b1}};
        end
        if (mark_q && !xm_q)
            xmv_q <= markv_q;
        if (rst_c) begin
            bv_q    <= 1'b0;
            go_q    <= 1'b0;
            bwait_q <= 8'd0;
            xm_q    <= 1'b0;
            xs_q    <= 1'b0;
            xp_q    <= 1'b0;
            en_q    <= START != 0 ? {NCPU{1'b1}} : {NCPU{1'b0}};
            fl_q    <= {NCPU{1'b0}};
        end else begin
            if (take) begin
                bv_q    <= 1'b1;
                bwait_q <= WAIT0;
            end else if (go) begin
                bv_q    <= 1'b0;
            end else if (bv_q && bwait_q != 8'd0) begin
                bwait_q <= bwait_q - 1'b1;
            end
            // next clock: still pending (neither taken nor gone now, so
            // bmask_q and en_q stay), every CPU of it then able to write
            // it, and none with an event of its own (the events at the
            // input register), or the wait then over
            go_q <= bv_q && !go && (bmask_q & ~bc_nx) == {NCPU{1'b0}} &&
                    ((bmask_q & ev_d & en_q) == {NCPU{1'b0}} || bwait_q <= 8'd1);
            // pins: a pulse waits until taken; pulses meanwhile give one
            xp_q <= (xp_q && !(from_pin && take_c && !take_v[0])) || stop_q;
            xs_q <= (xs_q && !(from_pin && take_c && take_v[0])) || start_q;
            xm_q <= (xm_q && !(from_pin && !take_c)) || mark_q;
            // a control record switches its CPUs when it is written; a stop
            // then writes END after it
            fl_q <= {NCPU{1'b0}};
            if (go && bc_q) begin
                for (k = 0; k < NCPU; k = k + 1)
                    if (bmask_q[k]) begin
                        en_q[k] <= bval_q[0];
                        fl_q[k] <= !bval_q[0];
                    end
            end
        end
    end
    assign tracing = en_q;

    // ---- per CPU: time-stamper and FIFO; with several, their whole-record
    // counts in one trc_wholes
    localparam SHARED = NCPU > 1 ? 1 : 0;
    wire [NCPU*REC_W-1:0] fi_rec;
    wire [NCPU-1:0]       fi_tag, fi_valid, fi_ready;
    wire [NCPU-1:0]       wx_inc, wx_dec, wl_inc, wl_dec, wx_slot, wl_slot;
    wire                  w_one;
    genvar g;
    generate
        if (SHARED != 0) begin : g_wholes
            trc_wholes #(
                .NCPU(NCPU), .NT(NT), .VAL_W(VAL_W), .DT_W(DT_W), .DROP_W(DROP_W)
            ) u_wholes (
                .clk(clk), .rst(rst_c),
                .wx_inc(wx_inc), .wx_dec(wx_dec), .wl_inc(wl_inc), .wl_dec(wl_dec),
                .wx_slot(wx_slot), .wl_slot(wl_slot), .w_one(w_one)
            );
        end else begin : g_own
            // (one CPU: its time-stamper keeps its whole counts)
            assign wx_slot = {NCPU{1'b0}};
            assign wl_slot = {NCPU{1'b0}};
            assign w_one   = 1'b0;
            wire unused_w = ^{wx_inc, wx_dec, wl_inc, wl_dec};
        end
        for (g = 0; g < NCPU; g = g + 1) begin : g_cpu
            wire [REC_W-1:0] ts_rec;
            wire             ts_tag;
            wire             ts_valid, ts_rdy, ts_busy, ts_due;
            // the room the time-stamper sees: not the last entry while a
            // broadcast for this CPU waits, unless it is the broadcast's clock
            wire             fi_afull;
            wire             fi_room = ts_rdy;
            wire             keep1   = bv_q && bmask_q[g] && fi_afull && !put[g];
            wire             t_room  = fi_room && !keep1;
            assign bc_ok[g] = fi_room && !ts_busy;
            // while the broadcast waits, keep1 holds the room, and no
            // TIME_EXT becomes pending unless one falls due now
            assign bc_nx[g] = bc_ok[g] && !ts_due;
            wire             t_valid = put[g] || normal[g];
            wire             t_os    = put[g] || os_q[g];
            wire [INFO_W-1:0] t_info = put[g] ? b_info : info_q[g*INFO_W +: INFO_W];
            // lost before the time-stamper: an event whose clock the
            // broadcast took, or a request the engine could not take
            wire             t_lost  = (put[g] && normal[g]) || lost_req[g];
            trc_tstamp #(
                .NT(NT), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .INFO_W(INFO_W),
                .PRESCALE(PRESCALE), .DT_W(DT_W), .DROP_W(DROP_W), .FILL(1),
                .SHARED(SHARED)
            ) u_tstamp (
                .clk(clk), .rst(rst_c),
                .ev_valid(t_valid), .ev_os(t_os), .ev_info(t_info),
                .flush(flush_q || fl_q[g]), .ev_first(put[g]), .ev_lost(t_lost),
                .busy(ts_busy), .due(ts_due), .drop(drop[g]),
                .wx_slot(wx_slot[g]), .wl_slot(wl_slot[g]), .w_one(w_one),
                .wx_inc(wx_inc[g]), .wx_dec(wx_dec[g]), .wl_inc(wl_inc[g]), .wl_dec(wl_dec[g]),
                .m_axis_tdata(ts_rec), .m_axis_tvalid(ts_valid), .m_axis_tuser(ts_tag),
                .m_axis_tready(t_room)
            );
            trc_fifo #(.W(TRW), .AW(FIFO_AW)) u_fifo (
                .clk(clk), .rst(rst_c),
                .s_axis_tdata({ts_tag, ts_rec}), .s_axis_tvalid(ts_valid), .s_axis_tready(ts_rdy),
                .s_afull(fi_afull),
                .m_axis_tdata({fi_tag[g], fi_rec[g*REC_W +: REC_W]}), .m_axis_tvalid(fi_valid[g]),
                .m_axis_tready(fi_ready[g])
            );
        end
    endgenerate

    trc_mpenc #(
        .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
        .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W),
        .NCPU(NCPU), .BURST(BURST)
    ) u_enc (
        .clk(clk), .rst(rst_c),
        .s_axis_tdata(fi_rec), .s_axis_tuser(fi_tag), .s_axis_tvalid(fi_valid),
        .s_axis_tready(fi_ready),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );

`ifdef TRC_ASSERT
    // a broadcast goes only to time-stampers that can write it
    always @(posedge clk) begin
        if (!rst_c) begin
            assert ((put & ~bc_ok) == {NCPU{1'b0}})
                else $error("%m: marker or control record into a busy time-stamper");
            assert (!go_q || bv_q)
                else $error("%m: broadcast ready with none pending");
        end
    end
`endif

endmodule

`resetall
