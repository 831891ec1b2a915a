// trc_afifo: asynchronous (dual-clock) FIFO with AXI-Stream handshakes: the
// write side on s_clk, the read side on m_clk, any ratio and phase between
// them. Gray-coded pointers cross through trc_sync (SYNC_N flops); the full
// flag (s side) and empty flag (m side) are flops computed from the other
// side's synchronized pointer, so they are pessimistic, never wrong. First
// word fall-through: the output word is read into a register every m_clk
// at the next read address (block RAM with a registered read, or LUT RAM).
// Reset comes from the read side: m_rst (synchronous to m_clk, any length)
// starts a handshake that resets the write side too (s_rst out, synchronous
// to s_clk) and holds both sides until each has seen the other's reset;
// s_clk must run for it to end. Latencies and constraints: docs/rtl.md,
// "Dual-clock front end".
// Parameters:
//   W      - data width
//   AW     - address bits; 2^AW entries, AW >= 1
//   SYNC_N - synchronizer flops per crossing, >= 2
`default_nettype none
`include "trc_format.vh"

module trc_afifo #(
    parameter W      = 24,
    parameter AW     = 4,
    parameter SYNC_N = 2
) (
    // ---- write side
    input  wire         s_clk,
    output wire         s_rst,      // the write side is in reset (s_clk)
    input  wire [W-1:0] s_axis_tdata,
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,
    // ---- read side
    input  wire         m_clk,
    input  wire         m_rst,
    output wire [W-1:0] m_axis_tdata,
    output wire         m_axis_tvalid,
    input  wire         m_axis_tready
);

    generate
        `TRC_PARAM_CHECK(AW >= 1 && AW <= 16, g_bad_aw, trc_bad_param_AW,
                         "trc_afifo: AW must be 1..16")
        `TRC_PARAM_CHECK(SYNC_N >= 2, g_bad_sync_n, trc_bad_param_SYNC_N,
                         "trc_afifo: SYNC_N must be >= 2")
    endgenerate

    localparam [AW+1:0] DEPTH = 1 << AW;
    // a full FIFO: write pointer = read pointer + DEPTH, which in Gray code
    // is the read pointer with its two top bits inverted
    localparam [AW:0]   FULL_X = {2'b11, {(AW-1){1'b0}}};

    // Written on s_clk, read on m_clk: an entry is read only after its write
    // pointer has crossed (SYNC_N + 1 m_clk edges), so a read never needs a
    // word being written, and no read-during-write rule applies.
    (* no_rw_check *)
    reg [W-1:0] mem [0:DEPTH-1];

    // ---- reset handshake -------------------------------------------------
    // m_rst makes req_q ask the s side to reset until it answers (ack). The
    // m side holds (reads nothing, shows nothing) from m_rst until the s
    // side has left its reset again, and clears its pointers only while the
    // s side is in reset (ack): so the s side never sees the read pointer
    // jump while it works.
    reg  req_q;
    wire ack;                               // s_rst, seen on m_clk
    wire m_hold = m_rst || req_q || ack;

    always @(posedge m_clk)
        req_q <= m_rst || (req_q && !ack);

    trc_sync #(.W(1), .N(SYNC_N)) u_sync_req (.clk(s_clk), .d(req_q), .q(s_rst));
    trc_sync #(.W(1), .N(SYNC_N)) u_sync_ack (.clk(m_clk), .d(s_rst), .q(ack));

    // ---- write side (s_clk) ----------------------------------------------
    reg  [AW:0] wbin_q, wbin_d, wgray_q, wgray_d;
    reg         full_q, full_d;
    wire [AW:0] rgray_s;                    // read pointer, seen on s_clk
    wire        wr = s_axis_tvalid && s_axis_tready;

    assign s_axis_tready = !full_q && !s_rst;

    // Both outcomes from flops, chosen by wr last (as on the read side).
    wire [AW:0] wbin_inc  = wbin_q + 1'b1;
    wire [AW:0] wgray_inc = (wbin_inc >> 1) ^ wbin_inc;
    wire        full_inc  = wgray_inc == (rgray_s ^ FULL_X);
    wire        full_now  = wgray_q == (rgray_s ^ FULL_X);

    always @* begin
        wbin_d  = wr ? wbin_inc : wbin_q;
        wgray_d = wr ? wgray_inc : wgray_q;
        full_d  = wr ? full_inc : full_now;
    end

    always @(posedge s_clk) begin
        if (wr)
            mem[wbin_q[AW-1:0]] <= s_axis_tdata;
        if (s_rst) begin
            wbin_q  <= {(AW+1){1'b0}};
            wgray_q <= {(AW+1){1'b0}};
            full_q  <= 1'b0;
        end else begin
            wbin_q  <= wbin_d;
            wgray_q <= wgray_d;
            full_q  <= full_d;
        end
    end

    // ---- read side (m_clk) -----------------------------------------------
    reg  [AW:0]  rbin_q, rbin_d, rgray_q, rgray_d;
    reg          empty_q, empty_d;
    reg  [W-1:0] out_q;
    wire [AW:0]  wgray_m;                   // write pointer, seen on m_clk
    wire         rd = m_axis_tready && m_axis_tvalid;

    assign m_axis_tvalid = !empty_q && !m_hold;
    assign m_axis_tdata  = out_q;

    // Both outcomes computed from flops, chosen by rd last: rd comes late
    // (from the reader's decision), the rest does not wait for it.
    wire [AW:0] rbin_inc  = rbin_q + 1'b1;
    wire [AW:0] rgray_inc = (rbin_inc >> 1) ^ rbin_inc;
    wire        empty_inc = rgray_inc == wgray_m;
    wire        empty_now = rgray_q == wgray_m;

    always @* begin
        rbin_d  = rd ? rbin_inc : rbin_q;
        rgray_d = rd ? rgray_inc : rgray_q;
        empty_d = rd ? empty_inc : empty_now;
    end

    always @(posedge m_clk) begin
        out_q <= mem[rbin_d[AW-1:0]];
        if (ack) begin
            rbin_q  <= {(AW+1){1'b0}};
            rgray_q <= {(AW+1){1'b0}};
        end else begin
            rbin_q  <= rbin_d;              // (no read while holding)
            rgray_q <= rgray_d;
        end
        empty_q <= m_hold || empty_d;
    end

    trc_sync #(.W(AW+1), .N(SYNC_N)) u_sync_w (.clk(m_clk), .d(wgray_q), .q(wgray_m));
    trc_sync #(.W(AW+1), .N(SYNC_N)) u_sync_r (.clk(s_clk), .d(rgray_q), .q(rgray_s));

`ifdef TRC_ASSERT
    // Each pointer steps at most one Gray code per clock (one bit changes:
    // what makes its crossing safe), and the occupancy each side sees
    // through the other's synchronized pointer stays within 0..DEPTH
    // (checked once each side has been through a reset: its reset signal
    // high for SYNC_N + 1 clocks in a row, longer than the synchronizers'
    // power-up contents can make it).
    reg [AW:0] wgray_p_q, rgray_p_q;
    reg        s_live_q, m_live_q;
    integer    s_n, m_n;
    initial begin
        s_live_q = 1'b0;
        m_live_q = 1'b0;
        s_n = 0;
        m_n = 0;
    end
    function [AW:0] bin_of(input [AW:0] g);
        integer i;
        begin
            bin_of[AW] = g[AW];
            for (i = AW - 1; i >= 0; i = i - 1)
                bin_of[i] = bin_of[i + 1] ^ g[i];
        end
    endfunction
    function one_step(input [AW:0] a, input [AW:0] b);
        one_step = a == b || bin_of(b) == bin_of(a) + 1'b1;
    endfunction
    wire [AW:0] s_used = wbin_q - bin_of(rgray_s);
    wire [AW:0] m_used = bin_of(wgray_m) - rbin_q;
    always @(posedge s_clk) begin
        wgray_p_q <= wgray_q;
        s_n       <= s_rst ? s_n + 1 : 0;
        s_live_q  <= s_live_q || s_n > SYNC_N;
        if (s_live_q && !s_rst) begin
            assert (one_step(wgray_p_q, wgray_q))
                else $error("%m: write pointer moved by more than one Gray step");
            assert (s_used <= DEPTH[AW:0])
                else $error("%m: write side sees more than DEPTH entries (overflow)");
        end
    end
    always @(posedge m_clk) begin
        rgray_p_q <= rgray_q;
        m_n       <= ack ? m_n + 1 : 0;
        m_live_q  <= m_live_q || m_n > SYNC_N;
        if (m_live_q && !ack) begin
            assert (one_step(rgray_p_q, rgray_q))
                else $error("%m: read pointer moved by more than one Gray step");
            assert (m_hold || m_used <= DEPTH[AW:0])
                else $error("%m: read side sees more than DEPTH entries (underflow)");
            assert (!(rd && m_hold))
                else $error("%m: read while the reset handshake runs");
        end
    end
`endif

endmodule

`resetall
