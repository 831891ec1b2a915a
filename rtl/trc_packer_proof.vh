// trc_packer_proof.vh: the formal-only part of trc_packer, included inside
// the module (with FORMAL defined; yosys read_verilog -formal, run by
// sim/formal/run.sh with sim/formal/trc_packer_prop.v). Ghost registers
// follow each record through the stages; from them, the k-induction
// invariants (TRC_INDUCT) tie every stage's registers to the record it
// holds, and the stream positions (f_nin, f_nout) let the harness track one
// stream bit from the input to the output. It reads the module's registers
// by name: it is part of trc_packer.v, kept apart so that the logic reads
// on its own.
`ifdef FORMAL
    // ---- invariants for k-induction. Ghost registers follow each record's
    // end - 1 (s_endm1) and phase through stages a and b, and the phase
    // after the pending bits; from them, each stage's registers are what
    // its record makes them.
    reg  [EW-1:0]  f_ea_q, f_eb_q;            // end - 1 of the records in a, b
    reg  [LWL-1:0] f_pa_q, f_pb_q;            // their phases
    reg  [LWL-1:0] f_pp_q;                    // bits pending in p_q (no tail)
    wire [LWL-1:0] f_enda = flush_a_q ? {LWL{1'b0}} : f_ea_q[LWL-1:0] + 1'b1;
    wire [LWL-1:0] f_endb = flush_q ? {LWL{1'b0}} : f_eb_q[LWL-1:0] + 1'b1;
    assign f_phase = va_q ? f_enda : v0_q ? f_endb : f_pp_q;
    // stage a / b has been loaded since power-up: from then on its flags
    // agree with each other, whether or not it holds a record
    reg f_lda_q = 1'b0, f_ldb_q = 1'b0;
    always @(posedge clk) begin
        f_lda_q <= f_lda_q || adv;
        f_ldb_q <= f_ldb_q || (adv && f_lda_q);
        if (adv) begin
            f_ea_q <= s_endm1;
            f_pa_q <= f_phase;
            f_eb_q <= f_ea_q;
            f_pb_q <= f_pa_q;
        end
        if (rst)
            f_pp_q <= {LWL{1'b0}};
        else if (fire)
            f_pp_q <= f_endb;
    end
    wire [EW-1:0]  f_pae = {{(EW-LWL){1'b0}}, f_pa_q};
    wire [EW-1:0]  f_pbe = {{(EW-LWL){1'b0}}, f_pb_q};
    wire [EW-1:0]  f_la  = f_ea_q - f_pae;    // length - 1
    wire [EW-1:0]  f_lb  = f_eb_q - f_pbe;
    wire [LWL-1:0] f_amta = ~f_ea_q[LWL-1:0];
    // a record's bits (right-aligned, length l + 1) and where they land
    function [LW-1:0] f_lm(input [EW-1:0] l);
        f_lm = {LW{1'b1}} >> (LW - 1 - l);
    endfunction
    // the bits of a record ending at e + 1 that belong to the next lane
    function [LW-1:0] f_ms(input [EW-1:0] e);
        f_ms = e[LWL] ? {LW{1'b1}} << (LW - 1 - e[LWL-1:0]) : {LW{1'b0}};
    endfunction
    // a tkeep: some bytes, the first ones, no gap
    function f_kok(input [KW-1:0] x);
        f_kok = x != {KW{1'b0}} && (~x & (~x + 1'b1)) == {KW{1'b0}};
    endfunction
    wire f_olast = olast_q && oc_q == {OCW{1'b0}};
    // the invariants are asserted with -DTRC_INDUCT (the k-induction runs
    // and their base case); a deep BMC is faster without them
`ifdef TRC_INDUCT
    always @* begin
        // (reset or not: these registers ignore it)
        if (f_lda_q)
            assert (em1_a_q == f_ea_q[LWL:3] &&
                    cpl_a_q == (f_ea_q[LWL] || &f_ea_q[LWL-1:0]) &&
                    cfa_q == (flush_a_q || cpl_a_q));
        if (f_ldb_q)
            assert (f_lda_q && hi_q == f_eb_q[LWL] &&
                    cpl_q == (f_eb_q[LWL] || &f_eb_q[LWL-1:0]) &&
                    cfb_q == (flush_q || cpl_q) && fh_q == (flush_q && hi_q));
        if (!rst) begin
            assert ((!va_q || f_lda_q) && (!v0_q || f_ldb_q) && (!tail_q || f_ldb_q));
            if (va_q) begin
                assert (f_ea_q >= f_pae && f_la < MAXLEN);
                assert ((xa_q & ~rotl(f_lm(f_la), {f_amta[LWL-1:LB], {LB{1'b0}}})) ==
                        {LW{1'b0}} && lo_q == f_amta[LB-1:0]);
                assert (m_d == f_ms(f_ea_q));
                assert (f_pa_q == (v0_q ? f_endb : f_pp_q));
            end
            if (v0_q) begin
                assert (f_eb_q >= f_pbe && f_lb < MAXLEN && f_pb_q == f_pp_q);
                assert ((r_q & ~rotl(f_lm(f_lb), ~f_eb_q[LWL-1:0])) == {LW{1'b0}});
                assert (m_q == f_ms(f_eb_q) && kpb_q == keep_of(f_eb_q[LWL-1:3]) &&
                        hi_q == f_eb_q[LWL] && kb_q == f_eb_q[LWL-1 -: OCW] &&
                        cpl_q == (f_eb_q[LWL] || &f_eb_q[LWL-1:0]) &&
                        cfb_q == (flush_q || cpl_q) && fh_q == (flush_q && hi_q));
            end
            // the pending bits from the lane's MSB down, zero below
            // (a tail: its lane leaves next, and the phase restarts at 0)
            if (!tail_q)
                assert ((p_q & ({LW{1'b1}} >> f_pp_q)) == {LW{1'b0}});
            if (tail_q)
                assert (f_pp_q == {LWL{1'b0}} && f_kok(tkp_q));
            if (sv_q)
                assert (f_kok(skp_q) && (slast_q || &skp_q));
            if (m_axis_tvalid)
                assert (f_kok(okp_q) && (olast_q || &okp_q) &&
                        m_axis_tlast == f_olast &&
                        m_axis_tkeep == (f_olast ? okp_q : {KW{1'b1}}));
        end
    end
`endif
`endif

`ifdef FORMAL
    // ---- stream positions (mod 2^FCW) for the tracked bit: of each record
    // in a and b (its first bit), of the lane in p_q (its MSB), of the spare
    // lane and of the output register's current word. In stream order:
    // output register, spare, p_q (a tail or the pending bits), b, a, input.
    localparam FCW = 10;
    reg  [FCW-1:0] f_ia_q, f_ib_q, f_pl_q, f_sl_q, f_ol_q;
    function [FCW-1:0] f_c(input [EW-1:0] x);            // to a position
        f_c = {{(FCW-EW){1'b0}}, x};
    endfunction
    function [FCW-1:0] f_bytes(input [KW-1:0] x);         // popcount * 8
        integer fb;
        begin
            f_bytes = {FCW{1'b0}};
            for (fb = 0; fb < KW; fb = fb + 1)
                f_bytes = f_bytes + (x[fb] ? 10'd8 : 10'd0);
        end
    endfunction
    function [FCW-1:0] f_words(input [OCW-1:0] x);        // x * OUT_W
        f_words = NC > 1 ? {{(FCW-OCW){1'b0}}, x} * OUT_W : {FCW{1'b0}};
    endfunction
    // a record's span: its bits, a flush's padding to the byte included
    wire [FCW-1:0] f_ea8 = (f_c(f_ea_q) + 10'd8) & ~10'd7;
    wire [FCW-1:0] f_eb8 = (f_c(f_eb_q) + 10'd8) & ~10'd7;
    wire [FCW-1:0] f_spa = (flush_a_q ? f_ea8 : f_c(f_ea_q) + 1'b1) - f_c(f_pae);
    wire [FCW-1:0] f_spb = (flush_q ? f_eb8 : f_c(f_eb_q) + 1'b1) - f_c(f_pbe);
    wire [FCW-1:0] f_lbb = f_ib_q - f_c(f_pbe);           // b's lane
    // the lanes' lengths in bits
    wire [FCW-1:0] f_tlen = f_words(tkb_q) + f_bytes(tkp_q);
    wire [FCW-1:0] f_slen = f_words(skb_q) + f_bytes(skp_q);
    wire [FCW-1:0] f_olen = f_words(oc_q) + f_bytes(okp_q);
    wire [FCW-1:0] f_pnext = tail_q ? f_pl_q + f_tlen : f_pl_q + f_c({{(EW-LWL){1'b0}}, f_pp_q});
    wire [FCW-1:0] f_bnext = v0_q ? f_ib_q + f_spb : f_pnext;
    assign f_nin  = va_q ? f_ia_q + f_spa : f_bnext;
    assign f_nout = m_axis_tvalid ? f_ol_q : f_pl_q;
    always @(posedge clk) begin
        if (adv) begin
            f_ia_q <= f_nin;
            f_ib_q <= f_ia_q;
        end
        if (rst)
            f_pl_q <= {FCW{1'b0}};
        else if (fire)
            f_pl_q <= cpl_q ? f_lbb + LW : flush_q ? f_ib_q + f_spb : f_lbb;
        else if (go && tail_q)
            f_pl_q <= f_pnext;
        if (!sv_q)
            f_sl_q <= f_pl_q;
        if (o_ce && !o_more)
            f_ol_q <= sv_q ? f_sl_q : f_pl_q;
        else if (o_ce)
            f_ol_q <= f_ol_q + OUT_W;
    end
    // the tracked bit's offset in each
    wire [FCW-1:0] f_ka = f_k - f_ia_q, f_kb = f_k - f_ib_q, f_kp = f_k - f_pl_q;
    wire [FCW-1:0] f_ks = f_k - f_sl_q, f_ko = f_k - f_ol_q;
    // a record's offset k lands at lane bit LW-1-(phase+k) mod LW: in r_q
    // there, in xa_q lo_q bits lower
    wire [LWL-1:0] f_xb = ~(f_pa_q + f_ka[LWL-1:0]) - {{(LWL-LB){1'b0}}, lo_q};
    wire [LWL-1:0] f_rb = ~(f_pb_q + f_kb[LWL-1:0]);
`ifdef TRC_INDUCT
    always @* begin
        if (!rst) begin
            assert (f_pl_q[2:0] == 3'd0 && (NC > 1 || oc_q == {OCW{1'b0}}));
            if (m_axis_tvalid)
                assert (f_ol_q + f_olen == (sv_q ? f_sl_q : f_pl_q) && f_ol_q[2:0] == 3'd0);
            if (sv_q)
                assert (f_sl_q + f_slen == f_pl_q && f_sl_q[2:0] == 3'd0);
            if (v0_q)
                assert (f_ib_q == f_pnext);
            if (va_q)
                assert (f_ia_q == f_bnext);
            if (f_kfl) begin
                if (va_q && f_ka < f_spa)
                    assert ((f_ka < f_c(f_la) + 1'b1 ? xa_q[f_xb] == f_kval : !f_kval) &&
                            f_kfe == (flush_a_q && f_ka == f_spa - 1'b1));
                if (v0_q && f_kb < f_spb)
                    assert ((f_kb < f_c(f_lb) + 1'b1 ? r_q[f_rb] == f_kval : !f_kval) &&
                            f_kfe == (flush_q && f_kb == f_spb - 1'b1));
                if (!tail_q && f_kp < f_c({{(EW-LWL){1'b0}}, f_pp_q}))
                    assert (p_q[~f_kp[LWL-1:0]] == f_kval && !f_kfe);
                if (tail_q && f_kp < f_tlen)
                    assert (p_q[~f_kp[LWL-1:0]] == f_kval && f_kfe == (f_kp == f_tlen - 1'b1));
                if (sv_q && f_ks < f_slen)
                    assert (s_q[~f_ks[LWL-1:0]] == f_kval &&
                            f_kfe == (slast_q && f_ks == f_slen - 1'b1));
                if (m_axis_tvalid && f_ko < f_olen)
                    assert (o_q[~f_ko[LWL-1:0]] == f_kval &&
                            f_kfe == (olast_q && f_ko == f_olen - 1'b1));
            end
        end
    end
`endif
`endif
