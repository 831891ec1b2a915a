// trc_packer: packs coded records (right-aligned bit strings) MSB first into
// OUT_W-bit AXI-Stream words, first stream byte in the most significant byte.
// A flush record (END/SYNC) is padded with zeros to the byte boundary and the
// word it ends goes out early, tkeep marking its bytes, with tlast.
// Parameters:
//   OUT_W  - output width in bits: 8, 16, 32 or 64
//   MAXLEN - longest coded record in bits
//   LW     - lane width: a power of two >= OUT_W and >= MAXLEN (trc_enc)
//   EW     - width of the end-position input: 2^EW > LW - 1 + MAXLEN
// The formal-only state and invariants are in trc_packer_proof.vh.
`default_nettype none
`include "trc_format.vh"

module trc_packer #(
    parameter OUT_W  = 64,
    parameter MAXLEN = 57,
    parameter LW     = 64,
    parameter EW     = 7
) (
    input  wire                 clk,
    input  wire                 rst,
    // ---- coded records in
    input  wire [MAXLEN-1:0]    s_bits,
    input  wire [EW-1:0]        s_endm1,    // bit phase in the lane + length - 1
    input  wire                 s_flush,
    input  wire                 s_valid,
    output wire                 s_ready,
    output wire                 s_ready_next, // s_ready's next value (a flop)
    // ---- stream out
    output wire [OUT_W-1:0]     m_axis_tdata,
    output reg  [OUT_W/8-1:0]   m_axis_tkeep,
    output reg                  m_axis_tlast,
    output reg                  m_axis_tvalid,
    input  wire                 m_axis_tready
`ifdef FORMAL
    ,
    // for sim/formal/trc_packer_prop.v: the phase the next record must
    // start at, as the stages' records leave it
    output wire [$clog2(LW)-1:0] f_phase,
    // the stream positions (mod 2^10) of the next bit to accept and the
    // next bit to send; a tracked bit: its position, in flight (accepted,
    // not sent), its value and whether it ends a flush
    output wire [9:0]            f_nin,
    output wire [9:0]            f_nout,
    input  wire [9:0]            f_k,
    input  wire                  f_kfl,
    input  wire                  f_kval,
    input  wire                  f_kfe
`endif
);

    // The stream is cut into lanes of LW bits. A record (at most LW bits)
    // ends in the lane it starts in or in the next one, so rotating it by
    // its end position puts every bit at its place within a lane: the bits
    // above the end (in lane terms, masked by m) belong to the current lane,
    // the rest to the next. The current lane's pending bits wait in p_q; a
    // lane completed by a record leaves for the output, one lane per clock
    // at most. No shifter as wide as two lanes, no bit count: the coder
    // tracks the phase.
    localparam LWL = $clog2(LW);
    localparam OWL = $clog2(OUT_W);
    localparam KW  = OUT_W / 8;
    localparam KBW = LWL - 3;                 // a byte's index in a lane
    localparam NC  = LW / OUT_W;              // output words per lane
    localparam OCW = LWL > OWL ? LWL - OWL : 1;
    localparam integer   NC_I  = NC - 1;
    localparam [OCW-1:0] NC_M1 = NC_I[OCW-1:0];

    function [LW-1:0] rotl(input [LW-1:0] x, input [LWL-1:0] n);
        integer k;
        begin
            rotl = x;
            for (k = 0; k < LWL; k = k + 1)
                if (n[k])
                    rotl = (rotl << (1 << k)) | (rotl >> (LW - (1 << k)));
        end
    endfunction

    // tkeep of an output word whose last byte has lane index kb
    function [KW-1:0] keep_of(input [KBW-1:0] kb);
        integer b;
        begin
            for (b = 0; b < KW; b = b + 1)
                keep_of[KW-1-b] = b <= ({{(32-KBW){1'b0}}, kb} & (KW - 1));
        end
    endfunction

    // ---- stages a (coarse rotate) and b (fine rotate, mask); they and the
    // coder's stages move together (adv) when b is empty or stage 1 takes
    // it. Datapath not reset, valid is. Both flags are flops (rdy_q, adv_q:
    // their next values are computed from the next state below), since adv
    // enables every stage back to the input register.
    localparam LB = LWL - LWL / 2;            // fine rotate bits
    wire [LW-1:0]  bits_l = {{(LW-MAXLEN){1'b0}}, s_bits};
    // the record's last bit lands at lane bit LW-1-endm1 (bit 0 = LSB)
    wire [LWL-1:0] amt    = ~s_endm1[LWL-1:0];
    reg  [LW-1:0]  xa_q, r_q, m_q;
    reg  [LB-1:0]  lo_q;
    reg  [LWL:3]   em1_a_q;                   // end - 1 in bytes
    reg  [OCW-1:0] kb_q;                      // a flush lane's output words - 1
    reg  [KW-1:0]  kpb_q;                     // and the last one's tkeep
    reg            flush_a_q, cpl_a_q, flush_q, hi_q, cpl_q, va_q, v0_q;
    reg            cfa_q, cfb_q, fh_q;        // makes a lane leave (a, b); leaves a tail
    reg            rdy_q, adv_q;
    wire           p_ready = rdy_q;
    wire           adv = adv_q;
    assign s_ready = adv;

    wire [LWL-1:3] em1_lo = em1_a_q[LWL-1:3];
    wire           em1_hi = em1_a_q[LWL];     // ends in the next lane

    // The mask of stage b: the lane bits at and above LW-1-(end - 1) of a
    // record that ends in the next lane (its bits there stay for it). In
    // groups of GS bits: a group is all ones (above the end's group) or, in
    // the end's group, cut by the end's low bits. Stage a registers the
    // group flags and the cut, so each mask bit is one LUT.
    localparam UB = LWL - LB, NG = 1 << UB, GS = 1 << LB;
    reg  [NG-1:0] mgt_q, meq_q;               // group all ones / cut
    reg  [GS-1:0] mfl_q;                      // the cut: bits kept in the group
    // from the end's group h and low bits l, as shifts of constants (a
    // decoder each, no arithmetic): groups above h's, h's group, and the
    // bits at and above GS-1-l
    wire [UB-1:0] e_h = s_endm1[LWL-1:LB];
    wire [LB-1:0] e_l = s_endm1[LB-1:0];
    wire [NG-1:0] mgt_d = s_endm1[LWL] ? ({NG{1'b1}} << ~e_h) << 1 : {NG{1'b0}};
    wire [NG-1:0] meq_d = s_endm1[LWL] ? {{(NG-1){1'b0}}, 1'b1} << ~e_h : {NG{1'b0}};
    wire [GS-1:0] mfl_d = {GS{1'b1}} << ~e_l;
    wire [LW-1:0] m_d;
    genvar gj, gf;
    generate
        for (gj = 0; gj < NG; gj = gj + 1) begin : g_mgrp
            for (gf = 0; gf < GS; gf = gf + 1) begin : g_mbit
                assign m_d[gj*GS + gf] = mgt_q[gj] || (meq_q[gj] && mfl_q[gf]);
            end
        end
    endgenerate
    always @(posedge clk) begin
        if (adv) begin
            xa_q      <= rotl(bits_l, {amt[LWL-1:LB], {LB{1'b0}}});
            lo_q      <= amt[LB-1:0];
            em1_a_q   <= s_endm1[LWL:3];
            flush_a_q <= s_flush;
            // the record completes its lane (ends at its last bit or past it)
            cpl_a_q   <= s_endm1[LWL] || &s_endm1[LWL-1:0];
            cfa_q     <= s_flush || s_endm1[LWL] || &s_endm1[LWL-1:0];
            cfb_q     <= cfa_q;
            fh_q      <= flush_a_q && em1_hi;
            r_q       <= rotl(xa_q, {{(LWL-LB){1'b0}}, lo_q});
            mgt_q     <= mgt_d;
            meq_q     <= meq_d;
            mfl_q     <= mfl_d;
            m_q       <= m_d;
            kpb_q     <= keep_of(em1_lo);
            hi_q      <= em1_hi;
            cpl_q     <= cpl_a_q;
            kb_q      <= em1_lo[LWL-1 -: OCW];
            flush_q   <= flush_a_q;
        end
        if (rst) begin
            va_q <= 1'b0;
            v0_q <= 1'b0;
        end else if (adv) begin
            va_q <= s_valid;
            v0_q <= va_q;
        end
    end

    // ---- stage 1
    // p_q holds the current lane's pending bits from its MSB down; the bits
    // below them are zero (reset and flushes clear it; a record's bits
    // above its length are zero). tail_q: p_q is a flush's last lane, which
    // leaves next, as tkb_q + 1 output words, the last with tkeep tkp_q. A
    // lane leaves into the output register, or into the spare one (s_q)
    // while the output register is busy; stage 1 moves only while the spare
    // is empty (a flop, so nothing combinational runs from m_axis_tready to
    // s_ready), and it takes no record that would make a second lane leave
    // in a clock behind a tail.
    reg  [LW-1:0]  p_q, s_q, o_q;
    reg            tail_q, sv_q, slast_q, olast_q;
    reg  [OCW-1:0] tkb_q, skb_q;
    reg  [KW-1:0]  tkp_q, skp_q, okp_q;       // their lanes' last tkeep
    reg  [OCW-1:0] oc_q;                      // output words left after this one

    wire go = !sv_q;
    wire fire = v0_q && p_ready;

    wire [LW-1:0]  merge  = (tail_q ? {LW{1'b0}} : p_q) | (r_q & ~m_q);
    wire           e_do   = go && (tail_q || (fire && (cpl_q || flush_q)));
    wire [LW-1:0]  e_word = tail_q ? p_q : merge;
    wire           e_last = tail_q || (flush_q && !hi_q);
    wire [OCW-1:0] e_kb   = tail_q ? tkb_q : flush_q && !hi_q ? kb_q : NC_M1;
    wire [KW-1:0]  e_kp   = tail_q ? tkp_q : flush_q && !hi_q ? kpb_q : {KW{1'b1}};

    // the output register: OUT_W bits at a time from the top of o_q. It
    // changes whenever it may (o_ce: its only term from m_axis_tready), to
    // its next word or to a new lane, chosen by flops; an empty load leaves
    // it invalid.
    wire o_more = NC > 1 && m_axis_tvalid && oc_q != {OCW{1'b0}};
    wire o_ce   = !m_axis_tvalid || m_axis_tready;
    wire o_free = o_ce && !o_more;
    (* keep *) wire go_n;                     // the spare lane is empty next clock (below)
    wire [LW-1:0]  ld_w   = sv_q ? s_q : e_word;
    wire           ld_l   = sv_q ? slast_q : e_last;
    wire [OCW-1:0] ld_kb  = sv_q ? skb_q : e_kb;
    wire [KW-1:0]  ld_kp  = sv_q ? skp_q : e_kp;  // all ones unless ld_l
    wire [OCW-1:0] ld_oc  = NC > 1 ? ld_kb : NC_M1;
    wire [OCW-1:0] oc_dn  = oc_q - 1'b1;

    // p_q's enable and selects are flops made a clock ahead (below): with
    // 64 flops behind it, the enable is a long net (a global buffer on
    // iCE40), so it starts at a flop
    reg pen_q, ptm_q, pmr_q, pkp_q;
    always @(posedge clk) begin
        if (pen_q)
            p_q <= (r_q & m_q & {LW{ptm_q}}) | (r_q & ~m_q & {LW{pmr_q}}) |
                   (p_q & {LW{pkp_q}});
        if (fire) begin
            tail_q <= flush_q && hi_q;
            tkb_q  <= kb_q;
            tkp_q  <= kpb_q;
        end else if (go) begin
            tail_q <= 1'b0;
        end
        if (!sv_q) begin                      // kept only if it has to wait
            s_q     <= e_word;
            slast_q <= e_last;
            skb_q   <= e_kb;
            skp_q   <= e_kp;
        end
        if (o_ce && !o_more) begin
            o_q          <= ld_w;
            olast_q      <= ld_l;
            okp_q        <= ld_kp;
            oc_q         <= ld_oc;
            m_axis_tlast <= ld_l && ld_oc == {OCW{1'b0}};
            m_axis_tkeep <= ld_oc == {OCW{1'b0}} ? ld_kp : {KW{1'b1}};
        end else if (o_ce) begin
            o_q          <= o_q << OUT_W;
            oc_q         <= oc_dn;
            m_axis_tlast <= olast_q && oc_dn == {OCW{1'b0}};
            m_axis_tkeep <= olast_q && oc_dn == {OCW{1'b0}} ? okp_q : {KW{1'b1}};
        end
        if (rst) begin
            p_q           <= {LW{1'b0}};
            tail_q        <= 1'b0;
            sv_q          <= 1'b0;
            m_axis_tvalid <= 1'b0;
        end else begin
            sv_q <= !go_n;                    // a lane waits in the spare
            if (o_ce)
                m_axis_tvalid <= o_more || sv_q || e_do;
        end
    end
    assign m_axis_tdata = o_q[LW-1 -: OUT_W];

    // Stage 1 moves while the spare lane is empty, except that it takes no
    // record behind a tail that would make a second lane leave in the same
    // clock: rdy_q is that, one clock ahead, from the next state, and adv_q
    // also moves the stages when stage b will be empty. Written from flags
    // made a stage ahead (cfa_q, cfb_q, fh_q), so each is a few inputs deep.
    // Only o_free comes from m_axis_tready; it enters last, through go_n
    // (kept as a net): the spare lane is empty next clock if the output
    // register takes a lane now or none is there or leaves stage 1 (the
    // tail, or the record in b). A tail follows a spilled flush that fires.
    wire busy   = sv_q || tail_q || (v0_q && cfb_q);
    assign go_n = o_free || !busy;
    wire tail_n = sv_q ? tail_q : v0_q && fh_q && !tail_q;
    wire cfb_n  = adv ? cfa_q : cfb_q;
    wire tk_n   = !(tail_n && cfb_n);
    // p_q changes when a record fires or a tail leaves (then it clears); a
    // firing record leaves r & m (it completes the lane), nothing (a flush)
    // or merges r & ~m into the pending bits (or into none behind a tail)
    wire fire_f  = !rst && (adv ? va_q : v0_q) && tk_n;   // fires if go_n
    wire cpl_n   = adv ? cpl_a_q : cpl_q;
    wire flush_n = adv ? flush_a_q : flush_q;
    assign s_ready_next = rst || (go_n && tk_n) || (adv && !va_q);
    always @(posedge clk) begin
        rdy_q <= rst || (go_n && tk_n);
        adv_q <= s_ready_next;
        pen_q <= go_n && (fire_f || (!rst && tail_n));
        ptm_q <= go_n && fire_f && cpl_n;
        pmr_q <= go_n && fire_f && !cpl_n && !flush_n;
        pkp_q <= go_n && fire_f && !cpl_n && !flush_n && !tail_n;
    end

`ifdef FORMAL
    // ghost state, k-induction invariants, stream positions
`include "trc_packer_proof.vh"
`endif

`ifdef TRC_ASSERT
    reg             past_stall_q;
    reg             sv_ref_q;                 // sv_q by its plain rule
    reg [OUT_W-1:0] past_data_q;
    reg [KW-1:0]    past_keep_q;
    reg             past_last_q;
    always @(posedge clk) begin
        past_stall_q <= !rst && m_axis_tvalid && !m_axis_tready;
        sv_ref_q     <= !rst && (o_free ? 1'b0 : e_do || sv_q);
        if (!rst)
            assert (sv_q == sv_ref_q)
                `TRC_ELSE("%m: spare lane flag out of step with its rule");
        past_data_q  <= m_axis_tdata;
        past_keep_q  <= m_axis_tkeep;
        past_last_q  <= m_axis_tlast;
        if (!rst && past_stall_q)
            assert (m_axis_tvalid && m_axis_tdata == past_data_q &&
                    m_axis_tkeep == past_keep_q && m_axis_tlast == past_last_q)
                `TRC_ELSE("%m: m_axis beat changed while stalled");
        if (!rst && m_axis_tvalid)
            assert (m_axis_tkeep != {KW{1'b0}} && (m_axis_tlast || &m_axis_tkeep))
                `TRC_ELSE("%m: empty or early-ended word without tlast");
        if (!rst && fire)
            assert ((p_q & r_q & ~m_q) == {LW{1'b0}} || tail_q)
                `TRC_ELSE("%m: record overlaps the pending bits (phase out of step)");
        if (!rst)
            assert (rdy_q == (go && !(tail_q && (flush_q || cpl_q))) &&
                    adv_q == (rdy_q || !v0_q) &&
                    (!v0_q || (cfb_q == (flush_q || cpl_q) && fh_q == (flush_q && hi_q))) &&
                    (!va_q || cfa_q == (flush_a_q || cpl_a_q)))
                `TRC_ELSE("%m: registered readiness out of step with the state");
        if (!rst)
            assert (pen_q == (fire || (go && tail_q)) && ptm_q == (fire && cpl_q) &&
                    pmr_q == (fire && !cpl_q && !flush_q) &&
                    pkp_q == (fire && !cpl_q && !flush_q && !tail_q))
                `TRC_ELSE("%m: registered p_q selects out of step with the state");
        if (!rst)
            assert (!(sv_q && !m_axis_tvalid))
                `TRC_ELSE("%m: spare lane full with the output register empty");
    end
`endif

endmodule

`resetall
