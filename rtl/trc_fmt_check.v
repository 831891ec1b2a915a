// trc_fmt_check: the stream format's width rules (docs/format.md), checked
// at elaboration for every encoder top (trc_enc, trc_mpenc). No logic: an
// instance with a bad width stops Verilator, Icarus and Yosys alike
// (TRC_PARAM_CHECK in trc_format.vh), with a message naming the parameter.
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, OUT_W - as in trc_enc
//   INFO_W - as the top has it; must equal max(1+FID_W, TYPE_W+VAL_W)
`default_nettype none
`include "trc_format.vh"

module trc_fmt_check #(
    parameter NT     = 23,
    parameter FID_W  = 15,
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter ND_F   = 3,
    parameter ND_T   = 3,
    parameter ND_V   = 3,
    parameter OUT_W  = 64,
    parameter INFO_W = `TRC_INFO_W(FID_W, TYPE_W, VAL_W)
) ();

    generate
        `TRC_PARAM_CHECK(NT >= 2 && NT <= 32, g_bad_nt, trc_bad_param_NT,
                         "trc: NT must be 2..32")
        `TRC_PARAM_CHECK(FID_W >= 1 && FID_W <= 31, g_bad_fid_w, trc_bad_param_FID_W,
                         "trc: FID_W must be 1..31")
        `TRC_PARAM_CHECK(TYPE_W >= 3 && TYPE_W <= 16, g_bad_type_w, trc_bad_param_TYPE_W,
                         "trc: TYPE_W must be 3..16")
        `TRC_PARAM_CHECK(VAL_W >= 1 && VAL_W <= 32, g_bad_val_w, trc_bad_param_VAL_W,
                         "trc: VAL_W must be 1..32")
        `TRC_PARAM_CHECK(ND_F >= 1 && ND_F <= 8 && ND_F <= FID_W &&
                         ND_T >= 1 && ND_T <= 8 && ND_T <= TYPE_W &&
                         ND_V >= 1 && ND_V <= 8 && ND_V <= VAL_W, g_bad_nd, trc_bad_param_ND,
                         "trc: ND_F/ND_T/ND_V must be 1..8 and <= their field width")
        `TRC_PARAM_CHECK(OUT_W == 8 || OUT_W == 16 || OUT_W == 32 || OUT_W == 64,
                         g_bad_out_w, trc_bad_param_OUT_W,
                         "trc: OUT_W must be 8, 16, 32 or 64")
        `TRC_PARAM_CHECK(INFO_W == `TRC_INFO_W(FID_W, TYPE_W, VAL_W), g_bad_info_w,
                         trc_bad_param_INFO_W,
                         "trc: INFO_W is derived, leave it at its default")
    endgenerate

endmodule

`resetall
