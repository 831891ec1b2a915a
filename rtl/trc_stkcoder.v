// trc_stkcoder: the stack mode coders (docs/format.md 4.7, MODE 1, and 4.8,
// MODE 2). One raw record per clock in, its coded bit string out,
// right-aligned with its end position: the interface of trc_coder. Its
// stages move together when the output register is empty or taken and no
// second piece is pending (trc_piece: the enable is a flop loaded a clock
// ahead, one replica per stage), each in the module that does its job:
//   context     trc_stkctx: the shadow call stack, the previous keys and
//               the table addresses; the context tables (trc_ptab) read
//   table       trc_stkpred: the entries out of the tables, the record
//               against them as the writes up to two records ahead left them,
//               and against the write the record ahead is making
//   prediction  trc_stkpred: the candidates selected, the entries' update
//   symbol      trc_stksym: ranks, payload, dictionaries
//   split       trc_stksym: rank code and prefix
//   sum         trc_stksym: where the rank code and the prefix start
//   length      trc_stksym: rank code and prefix over the payload, lengths
//   assembly    here: the dictionary fields under it, into a register
//   output      trc_piece: a record longer than MAXLEN leaves in two pieces
// The delta's timestamp code comes from trc_tscode, which the record meets
// as it enters the table stage and whose three stages end with the symbol
// stage.
// Parameters: NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, INFO_W, LANE_W, EW
//   as in trc_coder;
//   MODE   - 1 stack mode, 2 stack mode 2
//   MAXLEN - longest piece out, at least half of FULL (trc_enc sets it)
//   LENW   - bits of a piece length, $clog2(MAXLEN + 1)
//   SK     - function context table index bits, 4..12
//   SD     - shadow call stack depth, 1..64
//   SO     - stack mode 2: OS context table index bits, 4..12
//   TQ     - stack mode 2: the time quantum in ticks, 1 (none), 10, 100 or
//            1000 (docs/format.md 4.8; trc_tquant, two stages more)
//   FE     - stack mode 2: 1, fresh entries (docs/format.md 4.8)
//   FULL   - derived: the longest record, as trc_enc works it out
`default_nettype none
`include "trc_format.vh"

module trc_stkcoder #(
    parameter NT     = 23,
    parameter FID_W  = 15,
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter ND_F   = 3,
    parameter ND_T   = 3,
    parameter ND_V   = 3,
    parameter INFO_W = 23,
    parameter MODE   = 1,
    parameter MAXLEN = 57,
    parameter LENW   = 6,
    parameter LANE_W = 64,
    parameter EW     = 8,
    parameter SK     = 9,
    parameter SD     = 16,
    parameter SO     = 9,
    parameter TQ     = 1,
    parameter FE     = 0,
    parameter FULL   = `TRC_STK_FULL(MODE, NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V) +
                       (TQ > 1 ? $clog2(NT + 1) : 0)
) (
    input  wire              clk,
    input  wire              rst,
    // ---- raw records in: {os, delta[NT-1:0], info[INFO_W-1:0]}
    input  wire [NT+INFO_W:0] s_rec,
    input  wire              s_valid,
    output wire              s_ready,
    // ---- coded records out (see trc_coder)
    output wire [MAXLEN-1:0] m_bits,
    output wire [EW-1:0]     m_endm1,
    output wire              m_flush,
    output wire              m_valid,
    input  wire              m_ready,
    input  wire              m_ready_next  // m_ready's next value (trc_packer)
);

    localparam NZ   = $clog2(NT + 1);
    localparam QZ   = TQ > 1 ? NZ : 0;        // a raw delta's z in front of its code
    localparam TSW  = NZ + NT - 1 + QZ;
    localparam FW   = 1 + FID_W;
    localparam PDW  = 12;                     // stored delta, saturated
    localparam KBW  = 6;                      // bit-length estimate, 0..32
    localparam LW   = $clog2(NT + 1);         // bits of a delta's bit length
    localparam TW   = FW + PDW + KBW + 2;     // {key, pd, kb, m, h}
    localparam SOE  = MODE == 2 ? SO : 0;
    localparam SOW  = SOE > 0 ? SOE : 1;
    localparam OTW  = TYPE_W + VAL_W + PDW + KBW + 1; // {type, value, pd, kb, m}
    localparam PFW  = MODE == 2 ? 24 : 12;
    localparam PW   = PFW + 13 + TSW;
    localparam RW   = $clog2(FULL + 1) + 2;

    generate
        `TRC_PARAM_CHECK(MODE == 1 || MODE == 2, g_bad_mode, trc_bad_param_MODE,
                         "trc_stkcoder: MODE must be 1 or 2")
        `TRC_PARAM_CHECK(FULL <= 2 * MAXLEN, g_bad_maxlen, trc_bad_param_MAXLEN,
                         "trc_stkcoder: a record must fit two pieces of MAXLEN")
        `TRC_PARAM_CHECK(MODE != 2 || (SO >= 4 && SO <= 12), g_bad_so, trc_bad_param_SO,
                         "trc_stkcoder: stack mode 2 needs SO 4..12")
        `TRC_PARAM_CHECK(TQ == 1 || MODE == 2 && (((NT + 1) & NT) != 0), g_bad_tq,
                         trc_bad_param_TQ,
                         "trc_stkcoder: a time quantum needs MODE 2 and NT + 1 not a power of two")
    endgenerate

    // The stages move when the output register is empty or taken and no
    // second piece of a long record waits (trc_piece): the enable is a flop
    // loaded a clock ahead from the packer's next readiness (m_ready_next),
    // replicated so that each stage has its own beside it.
    localparam NA = 8;
    localparam A_IN = 0, A_CTX = 1, A_TAB = 2, A_OTAB = 3, A_PRED = 4, A_TS = 5;
    localparam A_SYM = 6, A_AB = 7;
    wire [NA-1:0] adv_r;
    assign s_ready = adv_r[A_IN];

    // ---- the time quantum's two stages: the delta in quanta (TQ > 1 only)
    wire [NT+INFO_W:0] q_rec;
    wire               q_valid, q_raw;
    wire [NT-1:0]      q_rawd;
    reg                ct_raw, tb_raw;
    reg  [NT-1:0]      ct_rawd;
    generate
        if (TQ > 1) begin : g_tq
            trc_tquant #(.NT(NT), .INFO_W(INFO_W), .TQ(TQ)) u_tq (
                .clk(clk), .rst(rst), .adv(adv_r[A_IN]), .s_rec(s_rec), .s_valid(s_valid),
                .m_rec(q_rec), .m_valid(q_valid), .m_raw(q_raw), .m_rawd(q_rawd)
            );
        end else begin : g_no_tq
            assign q_rec   = s_rec;
            assign q_valid = s_valid;
            assign q_raw   = 1'b0;
            assign q_rawd  = {NT{1'b0}};
        end
    endgenerate
    // beside the context and table stages: a raw delta is coded as ESC with
    // its own code (trc_tscode's prefix)
    always @(posedge clk)
        if (adv_r[A_IN]) begin
            ct_raw  <= q_raw;
            ct_rawd <= q_rawd;
            tb_raw  <= ct_raw;
        end

    // ---- context stage
    wire [SK-1:0]    raddr;
    wire [SOW-1:0]   raddr_o;
    wire             tb_valid, tb_xtop, tb_pk, tb_eq_ok, tb_up_ok, tb_dn_ok;
    wire [INFO_W:0]  tb_rec, pr_rec;
    wire [SK-1:0]    tb_idx;
    wire [SOW-1:0]   tb_oidx;
    wire [LW-1:0]    tb_dlen;
    wire [KBW-1:0]   tb_dlen3;
    wire [PDW-1:0]   tb_d0, tb_dm1, tb_dp1;
    wire [NT-1:0]    ct_delta;
    trc_stkctx #(
        .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .INFO_W(INFO_W),
        .SK(SK), .SD(SD), .SO(SOE), .PDW(PDW), .KBW(KBW)
    ) u_ctx (
        .clk(clk), .rst(rst), .adv(adv_r[A_CTX]), .s_rec(q_rec), .s_valid(q_valid),
        .raddr(raddr), .raddr_o(raddr_o), .ct_delta(ct_delta),
        .tb_valid(tb_valid), .tb_rec(tb_rec), .tb_xtop(tb_xtop), .tb_pk(tb_pk),
        .tb_idx(tb_idx), .tb_oidx(tb_oidx), .tb_dlen(tb_dlen), .tb_dlen3(tb_dlen3),
        .tb_eq_ok(tb_eq_ok), .tb_up_ok(tb_up_ok), .tb_dn_ok(tb_dn_ok),
        .tb_d0(tb_d0), .tb_dm1(tb_dm1), .tb_dp1(tb_dp1)
    );

    // ---- context tables: read in the context stage, out in the table
    // stage, used and written in the prediction stage
    wire [TW-1:0]  e_raw, e_fwd, e_new, e_pdata;
    wire [OTW-1:0] o_raw, o_fwd, o_new, o_pdata;
    wire           e_hit, e_ok, o_hit, o_ok, e_wr, o_wr, t_clr, e_phit, o_phit;
    wire [SK-1:0]  waddr;
    wire [SOW-1:0] waddr_o;
    // (from 2048 entries on, the valid flags take a block RAM, not LUT RAM)
    trc_ptab #(.SK(SK), .W(TW), .FLAGS_BRAM(SK >= 11 ? 1 : 0)) u_tab (
        .clk(clk), .rst(rst), .raddr(raddr), .ld(adv_r[A_TAB]), .wpend(e_wr), .cpend(t_clr),
        .waddr(waddr), .wdata(e_new),
        .rraw(e_raw), .rfwd(e_fwd), .rhit(e_hit), .rvalid(e_ok),
        .phit(e_phit), .pdata(e_pdata)
    );
    generate
        if (MODE == 2) begin : g_otab
            trc_ptab #(.SK(SO), .W(OTW)) u_otab (
                .clk(clk), .rst(rst), .raddr(raddr_o), .ld(adv_r[A_OTAB]), .wpend(o_wr),
                .cpend(t_clr), .waddr(waddr_o), .wdata(o_new),
                .rraw(o_raw), .rfwd(o_fwd), .rhit(o_hit), .rvalid(o_ok),
                .phit(o_phit), .pdata(o_pdata)
            );
        end else begin : g_no_otab
            assign o_raw = {OTW{1'b0}};
            assign o_fwd = {OTW{1'b0}};
            assign o_hit = 1'b0;
            assign o_ok  = 1'b0;
            assign o_phit  = 1'b0;
            assign o_pdata = {OTW{1'b0}};
            wire unused_o = ^{raddr_o, o_wr, waddr_o, o_new};
        end
    endgenerate

    // ---- prediction stage
    wire             sy_valid, sy_pk, sy_pred, sy_xtop, sy_m, sy_eh, sy_em;
    wire             sy_split, sy_nearo, sy_ndn, sy_npx, sy_efr, sy_ofr;
    wire [INFO_W:0]  sy_rec;
    wire [1:0]       sy_sym;
    wire [2:0]       sy_j;
    wire [LW-1:0]    sy_dlen;
    trc_stkpred #(
        .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .INFO_W(INFO_W),
        .SK(SK), .SO(SOE), .PDW(PDW), .KBW(KBW), .LW(LW), .FE(FE)
    ) u_pred (
        .clk(clk), .rst(rst), .adv(adv_r[A_PRED]),
        .tb_valid(tb_valid), .tb_rec(tb_rec), .tb_xtop(tb_xtop), .tb_pk(tb_pk),
        .tb_idx(tb_idx), .tb_oidx(tb_oidx), .tb_dlen(tb_dlen), .tb_dlen3(tb_dlen3),
        .tb_eq_ok(tb_eq_ok), .tb_up_ok(tb_up_ok), .tb_dn_ok(tb_dn_ok),
        .tb_d0(tb_d0), .tb_dm1(tb_dm1), .tb_dp1(tb_dp1), .tb_esc(tb_raw),
        .e_raw(e_raw), .e_fwd(e_fwd), .e_hit(e_hit), .e_ok(e_ok), .e_phit(e_phit),
        .e_pdata(e_pdata), .e_new(e_new), .e_wr(e_wr),
        .o_raw(o_raw), .o_fwd(o_fwd), .o_hit(o_hit), .o_ok(o_ok), .o_phit(o_phit),
        .o_pdata(o_pdata), .o_new(o_new), .o_wr(o_wr),
        .clr(t_clr), .waddr(waddr), .waddr_o(waddr_o), .pr_rec(pr_rec),
        .sy_valid(sy_valid), .sy_rec(sy_rec), .sy_pk(sy_pk), .sy_pred(sy_pred),
        .sy_xtop(sy_xtop), .sy_sym(sy_sym), .sy_j(sy_j), .sy_m(sy_m), .sy_eh(sy_eh),
        .sy_em(sy_em), .sy_split(sy_split), .sy_nearo(sy_nearo), .sy_ndn(sy_ndn),
        .sy_npx(sy_npx), .sy_efr(sy_efr), .sy_ofr(sy_ofr), .sy_dlen(sy_dlen)
    );

    // ---- the timestamp code of the delta, three stages from the record's
    // entry into the table stage: ready in the symbol stage
    wire [TSW-1:0] ts_code;
    wire [LW:0]    ts_len;
    wire [NT-1:0]  ts_mant;
    trc_tscode #(.NT(NT), .NZ(NZ), .PW(TQ > 1 ? NZ : 1), .CW(TSW), .LW(LW + 1)) u_ts (
        .clk(clk), .adv(adv_r[A_TS]), .delta(ct_raw ? ct_rawd : ct_delta), .pfx_en(ct_raw),
        .pfx({(TQ > 1 ? NZ : 1){1'b1}}),
        .code(ts_code), .len(ts_len), .mant(ts_mant)
    );

    // ---- symbol and length stages
    wire             as_valid, as_flush, as_long;
    wire [2:0]       as_ev;
    wire [PW-1:0]    as_pre;
    wire [RW-1:0]    as_len, as_lm1, as_lhi, as_lhm1;
    wire [ND_F-1:0]  as_fc;
    wire [ND_T-1:0]  as_tc;
    wire [ND_V-1:0]  as_vc;
    wire [INFO_W-1:0] as_info;
    trc_stksym #(
        .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
        .ND_T(ND_T), .ND_V(ND_V), .INFO_W(INFO_W), .MODE(MODE), .MAXLEN(MAXLEN),
        .LW(LW), .TSW(TSW), .FULL(FULL)
    ) u_sym (
        .clk(clk), .rst(rst), .adv(adv_r[A_SYM]), .tb_rec(tb_rec), .pr_rec(pr_rec), .pr_clr(t_clr),
        .sy_valid(sy_valid), .sy_rec(sy_rec), .sy_pk(sy_pk), .sy_pred(sy_pred),
        .sy_xtop(sy_xtop), .sy_sym(sy_sym), .sy_j(sy_j), .sy_m(sy_m), .sy_eh(sy_eh),
        .sy_em(sy_em), .sy_split(sy_split), .sy_nearo(sy_nearo), .sy_ndn(sy_ndn),
        .sy_npx(sy_npx), .sy_efr(sy_efr), .sy_ofr(sy_ofr), .sy_dlen(sy_dlen),
        .ts_code(ts_code), .ts_len(ts_len), .ts_mant(ts_mant),
        .as_valid(as_valid), .as_flush(as_flush), .as_ev(as_ev), .as_pre(as_pre),
        .as_long(as_long), .as_len(as_len), .as_lm1(as_lm1), .as_lhi(as_lhi),
        .as_lhm1(as_lhm1), .as_fc(as_fc), .as_tc(as_tc), .as_vc(as_vc), .as_info(as_info)
    );

    // ---- assembly stage: the dictionary fields under the prefix, rank code
    // and payload, in one of seven layouts (stack mode: the class comes
    // with them: 0 for the exit of the top, 10 and 11). The prefix moves
    // in two steps: over the fields' hit codes (and class), selected by
    // the event's kind (as_ev[2:1]: function, OS, OS with a raw type),
    // then over a raw key or value when there is one (as_ev[0]). Two small
    // selects in a row take fewer LUTs than one of seven shifts.
    localparam XW = PW > FULL ? PW : FULL;
    wire [FW-1:0]     as_fkey = as_info[FW-1:0];
    wire [TYPE_W-1:0] as_type = as_info[VAL_W +: TYPE_W];
    wire [VAL_W-1:0]  as_val  = as_info[VAL_W-1:0];
    wire [XW-1:0]     pre_x   = {{(XW-PW){1'b0}}, as_pre};
    reg  [XW-1:0]     sh_x, fld_x, bits_x;
    generate
        if (MODE == 2) begin : g_fields2
            localparam integer E_FH = ND_F, E_HH = ND_T + ND_V, E_MH = E_HH + TYPE_W;
            always @* begin
                case (as_ev[2:1])
                    2'd1:    sh_x = pre_x << E_FH;
                    2'd2:    sh_x = pre_x << E_HH;
                    2'd3:    sh_x = pre_x << E_MH;
                    default: sh_x = pre_x;              // 1: the class went first
                endcase
                case (as_ev)
                    3'd2:    fld_x = {{(XW-E_FH){1'b0}}, as_fc};
                    3'd3:    fld_x = {{(XW-E_FH-FW){1'b0}}, as_fc, as_fkey};
                    3'd4:    fld_x = {{(XW-E_HH){1'b0}}, as_tc, as_vc};
                    3'd5:    fld_x = {{(XW-E_HH-VAL_W){1'b0}}, as_tc, as_vc, as_val};
                    3'd6:    fld_x = {{(XW-E_MH){1'b0}}, as_tc, as_type, as_vc};
                    3'd7:    fld_x = {{(XW-E_MH-VAL_W){1'b0}}, as_tc, as_type, as_vc, as_val};
                    default: fld_x = {XW{1'b0}};
                endcase
            end
        end else begin : g_fields1
            localparam integer E_FH = 2 + ND_F, E_HH = 2 + ND_T + ND_V, E_MH = E_HH + TYPE_W;
            always @* begin
                case (as_ev[2:1])
                    2'd1:    sh_x = pre_x << E_FH;
                    2'd2:    sh_x = pre_x << E_HH;
                    2'd3:    sh_x = pre_x << E_MH;
                    default: sh_x = as_ev[0] ? pre_x << 1 : pre_x;
                endcase
                case (as_ev)
                    3'd2:    fld_x = {{(XW-E_FH){1'b0}}, 2'b10, as_fc};
                    3'd3:    fld_x = {{(XW-E_FH-FW){1'b0}}, 2'b10, as_fc, as_fkey};
                    3'd4:    fld_x = {{(XW-E_HH){1'b0}}, 2'b11, as_tc, as_vc};
                    3'd5:    fld_x = {{(XW-E_HH-VAL_W){1'b0}}, 2'b11, as_tc, as_vc, as_val};
                    3'd6:    fld_x = {{(XW-E_MH){1'b0}}, 2'b11, as_tc, as_type, as_vc};
                    3'd7:    fld_x = {{(XW-E_MH-VAL_W){1'b0}}, 2'b11, as_tc, as_type, as_vc,
                                      as_val};
                    default: fld_x = {XW{1'b0}};        // 1: class 0, in the shift
                endcase
            end
        end
    endgenerate
    always @*
        case (as_ev)
            3'd3:         bits_x = sh_x << FW | fld_x;      // a raw function key
            3'd5, 3'd7:   bits_x = sh_x << VAL_W | fld_x;   // a raw value
            default:      bits_x = sh_x | fld_x;
        endcase

    // ---- the assembled record's register (the layout select and the
    // output stage's piece select would not fit one clock)
    reg [FULL-1:0] ab_bits;
    reg [LENW-1:0] ab_len, ab_lm1, ab_lhi, ab_lhm1;
    reg            ab_flush, ab_valid, ab_long;
    always @(posedge clk) begin
        if (adv_r[A_AB]) begin
            ab_bits  <= bits_x[FULL-1:0];
            ab_len   <= as_len[LENW-1:0];
            ab_lm1   <= as_lm1[LENW-1:0];
            ab_lhi   <= as_lhi[LENW-1:0];
            ab_lhm1  <= as_lhm1[LENW-1:0];
            ab_flush <= as_flush;
        end
        if (rst) begin
            ab_valid <= 1'b0;
            ab_long  <= 1'b0;
        end else if (adv_r[A_AB]) begin
            ab_valid <= as_valid;
            ab_long  <= as_long;
        end
    end

    // ---- output stage
    localparam [EW-LENW-1:0] EZ = {(EW-LENW){1'b0}};
    trc_piece #(
        .FULL(FULL), .MAXLEN(MAXLEN), .LANE_W(LANE_W), .EW(EW), .EREP(1), .NA(NA)
    ) u_piece (
        .clk(clk), .rst(rst), .adv(1'b0), .m_ready(m_ready), .m_ready_n(m_ready_next), .adv_o(adv_r),
        .bits(ab_bits), .len({EZ, ab_len}), .lm1({EZ, ab_lm1}),
        .hi_len({EZ, ab_lhi}), .hi_lm1({EZ, ab_lhm1}),
        .long_rec(ab_long), .flush(ab_flush), .valid(ab_valid), .hold(unused_hold),
        .m_bits(m_bits), .m_endm1(m_endm1), .m_flush(m_flush), .m_valid(m_valid)
    );

    // Info bits a record kind does not use are ignored (docs/rtl.md).
    wire unused_hold;
    wire unused = ^{as_len[RW-1:LENW], as_lm1[RW-1:LENW], as_lhi[RW-1:LENW],
                    as_lhm1[RW-1:LENW], bits_x};

endmodule

`resetall
