// trc_evcdc: dual-clock front end of trc_core's event port. Events (and
// flush) from a CPU on its own clock cross to trc's clock through trc_afifo
// and come out one per trc clock at most, in order, on ports that drive
// trc_core's ev_valid, ev_os, ev_info and flush. Events are never stalled:
// an event that finds the crossing FIFO full is dropped and counted on the
// CPU side, and a LOST record with the count goes through the FIFO as soon
// as it has room, at the place of the loss. trc_core's own drops are counted
// by trc_core; when it drops a LOST record this front end presents, it
// counts that as one lost record, and the front end presents the rest of
// the count again at once: loss is never silent, and every LOST count
// covers exactly the events dropped at its place. Timing: docs/rtl.md,
// "Dual-clock front end".
// Parameters:
//   TYPE_W, VAL_W, INFO_W - format widths, as in trc_core
//   AW     - crossing FIFO address bits (2^AW events), >= 1
//   SYNC_N - synchronizer flops per crossing, >= 2
`default_nettype none
`include "trc_format.vh"

module trc_evcdc #(
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter INFO_W = 23,
    parameter AW     = 4,
    parameter SYNC_N = 2
) (
    // ---- CPU side (ev_clk)
    input  wire              ev_clk,
    input  wire              ev_valid,
    input  wire              ev_os,      // 0 function, 1 OS info
    input  wire [INFO_W-1:0] ev_info,    // layout as trc_core's ev_info
    input  wire              ev_flush,   // pulse: END, after the events before it
    output wire              ev_drop,    // this event dropped (and counted)
    output wire              ev_rst,     // in reset: events are ignored
    // ---- trc side (clk, rst): to trc_core
    input  wire              clk,
    input  wire              rst,
    output reg               o_valid,
    output reg               o_os,
    output reg  [INFO_W-1:0] o_info,
    output reg               o_flush,
    input  wire              o_drop      // trc_core's drop
);

    // FIFO word: {tag, info}; tag 0 function event, 1 OS event, 2 flush,
    // 3 LOST (count in the low VAL_W bits of info)
    localparam W = INFO_W + 2;
    localparam [1:0] TAG_FLUSH = 2'd2, TAG_LOST = 2'd3;
    localparam [TYPE_W-1:0] T_LOST = `TRC_T_LOST(TYPE_W);
    localparam [VAL_W-1:0]  VMAX   = {VAL_W{1'b1}};
    // CPU side drop counter: exact up to 2^CW-1 drops waiting for room
    localparam CW = VAL_W > 32 ? VAL_W : 32;

    generate
        `TRC_PARAM_CHECK(INFO_W >= TYPE_W + VAL_W, g_bad_info_w, trc_bad_param_INFO_W,
                         "trc_evcdc: INFO_W must be >= TYPE_W + VAL_W")
    endgenerate

    function [INFO_W-1:0] lost_info(input [VAL_W-1:0] n);
        lost_info = {{(INFO_W-TYPE_W-VAL_W){1'b0}}, T_LOST, n};
    endfunction

    wire [W-1:0] s_data;
    wire         s_valid, s_ready, s_rst;
    wire [W-1:0] m_data;
    wire         m_valid, m_ready;

    trc_afifo #(.W(W), .AW(AW), .SYNC_N(SYNC_N)) u_fifo (
        .s_clk(ev_clk), .s_rst(s_rst),
        .s_axis_tdata(s_data), .s_axis_tvalid(s_valid), .s_axis_tready(s_ready),
        .m_clk(clk), .m_rst(rst),
        .m_axis_tdata(m_data), .m_axis_tvalid(m_valid), .m_axis_tready(m_ready)
    );

    // ---- CPU side: one word a clock, LOST before the event, flush last -----
    // The drop count is one adder from a register: next = count + K, K one
    // of 1, 0 (a drop or not), 1 - VMAX, -VMAX (a full LOST word written,
    // with or without a drop); a LOST word of the whole count (count <=
    // VMAX) leaves just this cycle's drop. The three flags the decisions
    // read (count not 0, above VMAX, at its maximum) are flops.
    reg  [CW-1:0] lc_q, lc_d;               // events dropped, not yet sent
    reg           lnz_q, lbig_q, lmax_q;    // lc_q != 0, > VMAX, all ones
    reg           fl_q, fl_d;               // flush pending
    wire [VAL_W-1:0] lost_n = lbig_q ? VMAX : lc_q[VAL_W-1:0];
    wire          wr_lost = s_ready && lnz_q;
    wire          wr_ev   = s_ready && !lnz_q && ev_valid;
    wire          wr_fl   = s_ready && !lnz_q && !ev_valid && fl_q;
    wire          drop    = ev_valid && !wr_ev && !s_rst;
    localparam [CW-1:0] VMAX_CW = {{(CW-VAL_W){1'b0}}, VMAX};
    wire [CW-1:0] k_add   = wr_lost ? {{(CW-1){1'b0}}, drop} - VMAX_CW
                          : {{(CW-1){1'b0}}, drop && !lmax_q};
    wire [CW-1:0] lc_sum  = lc_q + k_add;

    assign s_valid = wr_lost || wr_ev || wr_fl;
    assign s_data  = wr_lost ? {TAG_LOST, lost_info(lost_n)}
                   : wr_ev   ? {1'b0, ev_os, ev_info}
                   :           {TAG_FLUSH, {INFO_W{1'b0}}};
    assign ev_drop = drop;
    assign ev_rst  = s_rst;

    always @* begin
        lc_d = (wr_lost && !lbig_q) ? {{(CW-1){1'b0}}, drop} : lc_sum;
        fl_d = (fl_q && !wr_fl) || ev_flush;
    end

    always @(posedge ev_clk) begin
        if (s_rst) begin
            lc_q   <= {CW{1'b0}};
            lnz_q  <= 1'b0;
            lbig_q <= 1'b0;
            lmax_q <= 1'b0;
            fl_q   <= 1'b0;
        end else begin
            lc_q   <= lc_d;
            lnz_q  <= lc_d != {CW{1'b0}};
            lbig_q <= lc_d > VMAX_CW;
            lmax_q <= &lc_d;
            fl_q   <= fl_d;
        end
    end

    // ---- trc side: present each word for one clock -----------------------
    // trc_core drops what it is given while its FIFO is full or while it
    // writes a LOST record of its own; it counts each drop as one lost
    // record. After any drop this side presents nothing for one clock, so
    // that trc_core can write its LOST record (when it has room) before the
    // next word. A LOST record of this side that trc_core dropped counted
    // there as one: the rest of its count is presented again after that
    // clock, before any later word.
    reg              lost_q;                // o_valid carries a LOST record
    reg  [VAL_W-1:0] n_q;                   // its count
    reg              rest_q;                // a rest of a dropped LOST waits
    reg  [VAL_W-1:0] rn_q;                  // its count
    wire             lost_dropped = o_valid && lost_q && o_drop;
    wire             gap = o_drop;          // trc_core dropped: a clock off
    wire             rest = lost_dropped ? n_q != {{(VAL_W-1){1'b0}}, 1'b1} : rest_q;
    wire [VAL_W-1:0] rest_n = lost_dropped ? n_q - 1'b1 : rn_q;
    // (rest without a drop is rest_q: a word is taken unless trc_core
    // dropped in this clock or a rest waits)
    wire             hold = o_drop || rest_q;
    wire [1:0]       tag = m_data[W-1:W-2];
    wire             take = m_valid && !hold;

    assign m_ready = !hold;

    // (The data registers are chosen by rest_q alone: a rest is presented
    // when rest_q is set and trc_core drops nothing in that clock, and
    // otherwise o_valid is low. Only the valid bits wait for o_drop.)
    always @(posedge clk) begin
        if (rest_q) begin
            o_info <= lost_info(rn_q);
            n_q    <= rn_q;
        end else begin
            o_info <= tag == TAG_LOST ? lost_info(m_data[VAL_W-1:0]) : m_data[INFO_W-1:0];
            n_q    <= m_data[VAL_W-1:0];
        end
        o_os <= rest_q || tag[0] || tag[1];   // (a flush is not presented)
        rn_q <= rest_n;
        if (rst) begin
            o_valid <= 1'b0;
            o_flush <= 1'b0;
            lost_q  <= 1'b0;
            rest_q  <= 1'b0;
        end else begin
            o_valid <= (!gap && rest) || (take && tag != TAG_FLUSH);
            o_flush <= take && tag == TAG_FLUSH;
            lost_q  <= (!gap && rest) || (take && tag == TAG_LOST);
            rest_q  <= gap && rest;
        end
    end

`ifdef TRC_ASSERT
    // The CPU side writes only with room; a LOST word carries 1..VMAX; the
    // flags agree with the count (once the CPU side has been reset: s_rst
    // high for SYNC_N + 1 clocks in a row).
    integer s_n;
    reg     s_live_q;
    initial begin
        s_n = 0;
        s_live_q = 1'b0;
    end
    always @(posedge ev_clk) begin
        s_n      <= s_rst ? s_n + 1 : 0;
        s_live_q <= s_live_q || s_n > SYNC_N;
    end
    always @(posedge ev_clk)
        if (s_live_q && !s_rst) begin
            assert (!s_valid || (s_ready && (!wr_lost || lost_n != {VAL_W{1'b0}})))
                else $error("%m: word written without room, or an empty LOST");
            assert (lnz_q == (lc_q != {CW{1'b0}}) && lbig_q == (lc_q > VMAX_CW) &&
                    lmax_q == &lc_q)
                else $error("%m: a drop count flag disagrees with the count");
        end
    always @(posedge clk)
        if (!rst)
            assert (!(o_valid && lost_q) || n_q != {VAL_W{1'b0}})
                else $error("%m: LOST record with count 0 presented");
`endif

endmodule

`resetall
