// trc_dictm_proof.vh: trc_dictm's formal-only part, included inside the
// module under FORMAL (sim/formal/trc_dictm_prop.v reads its f_* outputs;
// the k-induction runs define TRC_INDUCT). It names the module's registers.
// It is part of trc_dictm.v, kept apart so that the logic reads on its own.
`ifdef FORMAL
    // ---- invariants for k-induction (NB = 1): what each stage's registers
    // hold, in terms of the entries the record in stage K sees (eff: the
    // entries with the pending change and SYNC of the record 1 past K,
    // which reach the entries a clock after it left K)
    wire [NW-1:0] f_eff;
    wire [N-1:0]  f_mk, f_ma, f_mai, f_ml, f_mli;  // matches: K, A, L keys
    generate
        for (g = 0; g < N; g = g + 1) begin : g_feff
            assign f_eff[g*W +: W] = clr_q ? ent_init[g*W +: W] :
                                     c_q[g] ? ks_q : ent_c[g*W +: W];
            assign f_mk[g]  = kk_q == f_eff[g*W +: W];
            assign f_ma[g]  = ka_q == f_eff[g*W +: W];
            assign f_mai[g] = ka_q == ent_init[g*W +: W];
            assign f_ml[g]  = kl_q == ent_c[g*W +: W];
            assign f_mli[g] = kl_q == ent_init[g*W +: W];
        end
    endgenerate
    assign f_ent  = f_eff;
    assign f_wp   = wp_q;
    assign f_key  = {kl_q, ka_q, kk_q};
    assign f_kind = {ul_q, sl_q, ua_q, sa_q, uk_q, sk_q};
    integer fg;
    // asserted with -DTRC_INDUCT (the k-induction runs and their base case)
`ifdef TRC_INDUCT
    always @* begin
        if (NB == 1 && !rst) begin
            // stage K: the exact match vector of its key, zero unless looked up
            assert (e_q == (f_mk & {N{uk_q}}));
            // the SYNC flags in step; a SYNC changes nothing (and with FLIP
            // is never looked up: the input check below, carried through)
            if (FLIP != 0)
                assert (!(ul_q && sl_q) && !(ua_q && sa_q) && !(uk_q && sk_q));
            assert (s23_q == (sk_q || clr_q) && !(clr2_q && c2_q != {N{1'b0}}));
            // stage A: the select, the reset-value match, the record ahead
            assert (sel_q == (ua_q && !sk_q) && val_q == (f_mai & {N{ua_q && sk_q}}));
            if (ua_q || uk_q)
                assert (d1_q == (ua_q && ka_q == st(kk_q)));
            if (ua_q)
                assert (d2_q == (ka_q == ks_q));
            for (fg = 0; fg < N; fg = fg + 1) begin
                if (sel_q && !c_q[fg])
                    assert (eqb_q[fg] == f_ma[fg]);
                // a SYNC 2 past K has cleared the entries it did not change since
                if (clr2_q && !clr_q && !c_q[fg])
                    assert (ent_c[fg*W +: W] == ent_init[fg*W +: W]);
            end
            // stage L: the compares with the reset values and the records ahead
            if (ul_q) begin
                assert (riz_q == ((kl_q & ~LND) == {W{1'b0}}) &&
                        (rid_q & {N{riz_q}}) == f_mli);
                assert ({dh_q[0], dlo_q[0]} == eq2(kl_q, st(ka_q)) &&
                        {dh_q[1], dlo_q[1]} == eq2(kl_q, st(kk_q)) &&
                        {dh_q[2], dlo_q[2]} == eq2(kl_q, ks_q));
                for (fg = 0; fg < N; fg = fg + 1) begin
                    // with the entries as they stood: unchanged since where
                    // no record after the one 2 past K changed them
                    if (!clr2_q && !clr_q && !c2_q[fg] && !c_q[fg])
                        assert ({rawh_q[fg], rawl_q[fg]} == eq2(kl_q, ent_c[fg*W +: W]));
                    // with the value the record 2 past K stored there
                    if (c2_q[fg] && !c_q[fg] && !clr_q)
                        assert ((dh_q[3] && dlo_q[3]) == f_ml[fg]);
                end
            end
        end
    end
`endif
`endif
