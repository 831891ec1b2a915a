// trc_stksym: the symbol, split, sum and length stages of the stack mode
// coders (docs/format.md 4.7, 4.8). A record's code is a prefix of NP and
// class codes, the delta symbol's rank code, its payload, then the
// dictionary fields. The symbol stage looks the parts up: the place of the
// delta symbol in its alphabet (its order by m, NP, stack mode 2's split
// NEAR and NPX), the step 2 code of NP and class, the payload (the mantissa
// or the timestamp code, from trc_tscode) and the dictionaries; the split
// stage makes the rank code and the prefix; the sum stage adds up where the rank
// code and the prefix start; the length stage puts them over the payload
// (two shifts side by side) and works out the record's length, and the
// length less 1, less MAXLEN and less MAXLEN + 1 (one adder each, after a
// table of the field lengths), for the assembly.
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, INFO_W - the format's
//   MODE   - 1 stack mode, 2 stack mode 2
//   MAXLEN - longest piece (trc_piece)
//   LW     - bits of a delta's bit length
//   TSW    - timestamp code bits, NZ + NT - 1
//   FULL   - the longest record (trc_stkcoder)
//   PFW, PW, RW - derived: the longest prefix; prefix over rank code and
//            payload; lengths
`default_nettype none
`include "trc_format.vh"

module trc_stksym #(
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
    parameter LW     = 5,
    parameter TSW    = $clog2(NT + 1) + NT - 1,
    parameter FULL   = 100,                          // longest record
    parameter PFW    = MODE == 2 ? 24 : 12,          // longest prefix
    parameter PW     = PFW + 13 + TSW,
    parameter RW     = $clog2(FULL + 1) + 2
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               adv,
    // ---- the prediction stage's record (its keys enter the dictionaries)
    // and the table stage's (the dictionaries compare its keys a clock early)
    input  wire [INFO_W:0]    tb_rec,
    input  wire [INFO_W:0]    pr_rec,
    input  wire               pr_clr,   // it is a SYNC: the dictionaries clear after it
    // ---- the symbol stage (trc_stkpred's sy_* registers)
    input  wire               sy_valid,
    input  wire [INFO_W:0]    sy_rec,
    input  wire               sy_pk, sy_pred, sy_xtop,
    input  wire [1:0]         sy_sym,
    input  wire [2:0]         sy_j,
    input  wire               sy_m, sy_eh, sy_em, sy_split, sy_nearo, sy_ndn, sy_npx,
    input  wire               sy_efr, sy_ofr, // fresh function / OS entry (FE)
    input  wire [LW-1:0]      sy_dlen,
    // the delta's timestamp code, its length and mantissa (trc_tscode)
    input  wire [TSW-1:0]     ts_code,
    input  wire [LW:0]        ts_len,
    input  wire [NT-1:0]      ts_mant,
    // ---- the assembly stage's registers (loaded on adv)
    output reg                as_valid,
    output reg                as_flush,
    output reg  [2:0]         as_ev,    // the fields: see ev below
    output reg  [PW-1:0]      as_pre,   // prefix, rank code, payload
    output reg                as_long,  // longer than MAXLEN
    output reg  [RW-1:0]      as_len, as_lm1, as_lhi, as_lhm1,
    output reg  [ND_F-1:0]    as_fc,
    output reg  [ND_T-1:0]    as_tc,
    output reg  [ND_V-1:0]    as_vc,
    output reg  [INFO_W-1:0]  as_info
);

    localparam FW = 1 + FID_W;
    localparam M2 = MODE == 2;
    localparam [TYPE_W-1:0] T_END  = `TRC_T_END(TYPE_W);
    localparam [TYPE_W-1:0] T_SYNC = `TRC_T_SYNC(TYPE_W);

    wire              os    = sy_rec[INFO_W];
    wire              fn    = !os;
    wire [INFO_W-1:0] info  = sy_rec[INFO_W-1:0];
    wire [TYPE_W-1:0] otype = info[VAL_W +: TYPE_W];
    wire              flush = os && (otype == T_END || otype == T_SYNC);

    // ---- the delta symbol's rank in its alphabet. Its place in the order
    // of m (EQ NEAR L0 L+1 L-1 L+2 L-2 L+3 L-3 L+4, or L0 .. L+3 EQ NEAR L-3
    // L+4; ESC after them, 10), then one more after a split NEAR's NEARo
    // (stack mode 2's phase) and one more at or after NP's place.
    wire       in_e   = fn || !M2;                  // coded with the function entry
    wire       np     = sy_pred;                    // the alphabet with NP
    wire       np_h   = in_e && sy_eh;              // NP at 3 or 8 (else 1)
    wire       split  = M2 && in_e && sy_split;
    wire       npx    = M2 && os && sy_pk && sy_pred; // step 1's alphabet
    reg  [3:0] pos, pos_near, npp;
    reg  [1:0] rinc;
    reg  [2:0] zz;
    always @* begin
        case (sy_j)                                 // j + 3 -> L0 L+1 L-1 ...
            3'd3: zz = 3'd0;  3'd4: zz = 3'd1;  3'd2: zz = 3'd2;  3'd5: zz = 3'd3;
            3'd1: zz = 3'd4;  3'd6: zz = 3'd5;  3'd0: zz = 3'd6;  default: zz = 3'd7;
        endcase
        pos_near = sy_m ? 4'd7 : 4'd1;
        case (sy_sym)
            2'd0:    pos = sy_m ? 4'd6 : 4'd0;
            2'd1:    pos = pos_near;
            2'd2:    pos = sy_m ? (zz <= 3'd5 ? {1'b0, zz} : {1'b0, zz} + 4'd2)
                                : {1'b0, zz} + 4'd2;
            default: pos = 4'd10;
        endcase
        npp  = !np_h ? 4'd1 : sy_m ? 4'd8 : 4'd3;
        // rank = pos + rinc, added in the split stage
        rinc = {1'b0, split && (pos > pos_near || sy_nearo)} + {1'b0, np && pos >= npp};
    end
    // the last rank has no closing zero: ESC, unless NPX follows it (the
    // code itself is made in the split stage); a fresh entry's delta has
    // no rank code at all
    wire       last  = sy_sym == 2'd3 && !npx;
    wire       nodr  = M2 && (in_e ? sy_efr : sy_ofr);

    // ---- the prefix: stack mode's NP; stack mode 2's step 1 NP or NPX
    // (after an OS record), then the function entry's NP and the class,
    // then (an OS record after a function record) the OS entry's NP.
    reg [3:0]     npr_e;
    reg [1:0]     cls;
    reg [1:0]     cls_len;
    reg [11:0]    s2;
    reg [3:0]     s2_len;
    always @* begin
        // the function entry's NP: in front of element 1, 3 or 8 of the
        // order; after NEARo when the phase splits NEAR ahead of it
        npr_e = !sy_eh ? 4'd1 : sy_em ? 4'd8 : 4'd3;
        if (M2 && sy_split && sy_eh)
            npr_e = npr_e + 4'd1;
        cls     = !M2 ? 2'b00 : os ? 2'b11 : sy_xtop ? 2'b00 : 2'b10;
        cls_len = !M2 ? 2'd0 : os ? 2'd2 : sy_xtop ? 2'd1 : 2'd2;
        s2      = ((({12{1'b1}} >> (12 - npr_e)) << 1) << cls_len) | {10'd0, cls};
        s2_len  = npr_e + 4'd1 + {2'd0, cls_len};
        if (M2 && sy_efr) begin     // a fresh function entry: no NP
            s2     = {10'd0, cls};
            s2_len = {2'd0, cls_len};
        end
    end

    // ---- the payload, right-aligned, and its length
    localparam SW = $clog2(PW) + 1;
    reg  [TSW-1:0] pl;
    reg  [SW-1:0]  pl_len;
    always @* begin
        case (sy_sym)
            2'd0: begin pl = {TSW{1'b0}}; pl_len = {SW{1'b0}}; end
            2'd1: begin
                pl     = {{(TSW-1){1'b0}}, sy_ndn && !split};
                pl_len = {{(SW-1){1'b0}}, !split};
            end
            2'd2: begin
                pl     = {{(TSW-NT){1'b0}}, ts_mant};
                pl_len = {{(SW-LW){1'b0}}, sy_dlen} - 1'b1;
            end
            default: begin pl = ts_code; pl_len = {{(SW-LW-1){1'b0}}, ts_len}; end
        endcase
    end

    // ---- dictionaries, for the records that use them; they compare the
    // prediction stage's keys as they enter (trc_dictp)
    wire            f_hit, t_hit, v_hit;
    wire [ND_F-1:0] f_code;
    wire [ND_T-1:0] t_code;
    wire [ND_V-1:0] v_code;
    wire            os_upd = sy_valid && os && (!M2 || !sy_pred);
    trc_dictp #(.ND(ND_F), .W(FW), .FLIP(M2 ? 0 : 1)) u_fdict (
        .clk(clk), .rst(rst), .adv(adv), .key_e(tb_rec[FW-1:0]), .key_in(pr_rec[FW-1:0]),
        .clr(pr_clr),
        .upd(sy_valid && fn && !sy_pred && !sy_xtop), .hit(f_hit), .code(f_code)
    );
    trc_dictp #(.ND(ND_T), .W(TYPE_W), .FLIP(0)) u_tdict (
        .clk(clk), .rst(rst), .adv(adv), .key_e(tb_rec[VAL_W +: TYPE_W]),
        .key_in(pr_rec[VAL_W +: TYPE_W]), .clr(pr_clr),
        .upd(os_upd), .hit(t_hit), .code(t_code)
    );
    trc_dictp #(.ND(ND_V), .W(VAL_W), .FLIP(0)) u_vdict (
        .clk(clk), .rst(rst), .adv(adv), .key_e(tb_rec[VAL_W-1:0]), .key_in(pr_rec[VAL_W-1:0]),
        .clr(pr_clr),
        .upd(os_upd), .hit(v_hit), .code(v_code)
    );

    // ---- what the split, sum and length stages only carry to the length
    // stage, in one bundle per stage: flush, fields (!pred), os, xtop, the
    // dictionaries' hits and codes, info
    localparam CW = 7 + ND_F + ND_T + ND_V + INFO_W;
    wire [CW-1:0] sy_c = {flush, !sy_pred, os, sy_xtop, f_hit, t_hit, v_hit,
                          f_code, t_code, v_code, info};
    reg  [CW-1:0] sx_c, sm_c, ln_c;

    // ---- the split stage's registers: the parts, the rank and the step 2
    // code, before the rank code and the prefix are put together
    reg              sx_valid, sx_pred, sx_pk, sx_npx, sx_last, sx_nodr, sx_ofr;
    reg [TSW-1:0]    sx_pl;
    reg [SW-1:0]     sx_pl_len;
    reg [3:0]        sx_pos;
    reg [1:0]        sx_rinc;
    reg [11:0]       sx_s2;
    reg [3:0]        sx_s2_len;
    always @(posedge clk) begin
        if (adv) begin
            sx_c      <= sy_c;
            sx_pred   <= sy_pred;
            sx_pk     <= sy_pk;
            sx_npx    <= sy_npx;
            sx_last   <= last;
            sx_nodr   <= nodr;
            sx_ofr    <= M2 && sy_ofr;
            sx_pl     <= pl;
            sx_pl_len <= pl_len;
            sx_pos    <= pos;
            sx_rinc   <= rinc;
            sx_s2     <= s2;
            sx_s2_len <= s2_len;
        end
        if (rst)
            sx_valid <= 1'b0;
        else if (adv)
            sx_valid <= sy_valid;
    end
    wire sx_os = sx_c[CW-3];                 // after flush and fields

    // ---- the split stage: the rank code (rank ones, a zero) and the prefix
    wire [3:0]  sx_rank = sx_pos + {2'd0, sx_rinc};
    wire [12:0] dr     = sx_nodr ? 13'd0 : ({13{1'b1}} >> (13 - sx_rank)) << !sx_last;
    wire [3:0]  dr_len = sx_nodr ? 4'd0 : sx_rank + {3'd0, !sx_last};
    // step 1's NP or NPX: '10' or twelve ones; of a fresh OS entry one bit
    wire [11:0] np1     = sx_ofr ? {11'd0, sx_npx} : sx_npx ? 12'hfff : 12'd2;
    wire [4:0]  np1_len = sx_ofr ? 5'd1 : sx_npx ? 5'd12 : 5'd2;
    wire        x_fn   = !sx_os;
    reg [PFW-1:0] pf;
    reg [4:0]     pf_len;
    always @* begin
        pf      = {PFW{1'b0}};
        pf_len  = 5'd0;
        if (!M2) begin
            if (!sx_pred) begin
                pf     = {{(PFW-12){1'b0}}, sx_s2};
                pf_len = {1'b0, sx_s2_len};
            end
        end else if (sx_pk) begin
            // step 1, unless the OS entry predicts the record: NP or NPX,
            // then a function record's step 2 code
            if (x_fn && !sx_pred) begin
                pf     = ({{(PFW-12){1'b0}}, np1} << sx_s2_len) | {{(PFW-12){1'b0}}, sx_s2};
                pf_len = np1_len + {1'b0, sx_s2_len};
            end else if (!(sx_os && sx_pred)) begin
                pf     = {{(PFW-12){1'b0}}, np1};
                pf_len = np1_len;
            end
        end else if (sx_os || !sx_pred) begin
            // step 2: the function entry's NP and class; an OS record then
            // the OS entry's NP when it is not predicted (none when fresh)
            pf     = {{(PFW-12){1'b0}}, sx_s2};
            pf_len = {1'b0, sx_s2_len};
            if (sx_os && !sx_pred && !sx_ofr) begin
                pf     = (pf << 2) | {{(PFW-2){1'b0}}, 2'b10};
                pf_len = pf_len + 5'd2;
            end
        end
    end

    // ---- the sum stage's registers: the parts and their lengths
    reg              sm_valid;
    reg [TSW-1:0]    sm_pl;
    reg [12:0]       sm_dr;
    reg [PFW-1:0]    sm_pf;
    reg [SW-1:0]     sm_pl_len;
    reg [3:0]        sm_dr_len;
    reg [4:0]        sm_pf_len;
    always @(posedge clk) begin
        if (adv) begin
            sm_c      <= sx_c;
            sm_pl     <= sx_pl;
            sm_dr     <= dr;
            sm_pf     <= pf;
            sm_pl_len <= sx_pl_len;
            sm_dr_len <= dr_len;
            sm_pf_len <= pf_len;
        end
        if (rst)
            sm_valid <= 1'b0;
        else if (adv)
            sm_valid <= sx_valid;
    end

    // ---- the sum stage: where the rank code and the prefix start, and the
    // end of the prefix (two short adders)
    reg              ln_valid;
    reg [TSW-1:0]    ln_pl;
    reg [12:0]       ln_dr;
    reg [PFW-1:0]    ln_pf;
    reg [SW-1:0]     ln_sh_dr, ln_sh_pf;
    reg [RW-1:0]     ln_top;
    wire [SW-1:0] sh_pf = sm_pl_len + {{(SW-4){1'b0}}, sm_dr_len};
    always @(posedge clk) begin
        if (adv) begin
            ln_c      <= sm_c;
            ln_pl     <= sm_pl;
            ln_dr     <= sm_dr;
            ln_pf     <= sm_pf;
            ln_sh_dr  <= sm_pl_len;
            ln_sh_pf  <= sh_pf;
            ln_top    <= {{(RW-SW){1'b0}}, sh_pf} + {{(RW-5){1'b0}}, sm_pf_len};
        end
        if (rst)
            ln_valid <= 1'b0;
        else if (adv)
            ln_valid <= sm_valid;
    end
    wire              ln_flush, ln_fields, ln_os, ln_xtop, ln_fh, ln_th, ln_vh;
    wire [ND_F-1:0]   ln_fc;
    wire [ND_T-1:0]   ln_tc;
    wire [ND_V-1:0]   ln_vc;
    wire [INFO_W-1:0] ln_info;
    assign {ln_flush, ln_fields, ln_os, ln_xtop, ln_fh, ln_th, ln_vh,
            ln_fc, ln_tc, ln_vc, ln_info} = ln_c;

    // ---- the length stage. The fields: 0 none, 1 exit of top, 2 function
    // hit, 3 function miss, 4..7 OS with {type hit, value hit} = 11, 10,
    // 01, 00; stack mode puts the class before them.
    reg [2:0] ev;
    always @* begin
        ev = 3'd0;
        if (ln_fields) begin
            if (!ln_os)
                ev = ln_xtop ? 3'd1 : ln_fh ? 3'd2 : 3'd3;
            else
                ev = {1'b1, !ln_th, !ln_vh};
        end
    end
    localparam integer C2 = M2 ? 0 : 2;
    localparam integer E_FH = C2 + ND_F, E_FM = C2 + ND_F + FW;
    localparam integer E_HH = C2 + ND_T + ND_V, E_HM = E_HH + VAL_W;
    localparam integer E_MH = E_HH + TYPE_W, E_MM = E_HH + TYPE_W + VAL_W;
    localparam integer E_X  = M2 ? 0 : 1;
    function automatic [8*RW-1:0] ev_rom(input integer off);
        integer k, v;
        begin
            for (k = 0; k < 8; k = k + 1) begin
                case (k)
                    0: v = 0;      1: v = E_X;    2: v = E_FH;   3: v = E_FM;
                    4: v = E_HH;   5: v = E_HM;   6: v = E_MH;   default: v = E_MM;
                endcase
                v = v - off;
                ev_rom[k*RW +: RW] = v[RW-1:0];
            end
        end
    endfunction
    localparam [8*RW-1:0] EV0 = ev_rom(0), EV1 = ev_rom(1), EVM = ev_rom(MAXLEN),
                          EVM1 = ev_rom(MAXLEN + 1);
    wire [RW-1:0] len_l  = ln_top + EV0[ev*RW +: RW];
    wire [RW-1:0] lm1_l  = ln_top + EV1[ev*RW +: RW];
    wire [RW-1:0] lhi_l  = ln_top + EVM[ev*RW +: RW];
    wire [RW-1:0] lhm1_l = ln_top + EVM1[ev*RW +: RW];
    // prefix and rank code over the payload: two shifts side by side
    wire [PW-1:0] pre = {{(PW-TSW){1'b0}}, ln_pl} | ({{(PW-13){1'b0}}, ln_dr} << ln_sh_dr) |
                        ({{(PW-PFW){1'b0}}, ln_pf} << ln_sh_pf);

    always @(posedge clk) begin
        if (adv) begin
            as_flush <= ln_flush;
            as_ev    <= ev;
            as_pre   <= pre;
            as_len   <= len_l;
            as_lm1   <= lm1_l;
            as_lhi   <= lhi_l;
            as_lhm1  <= lhm1_l;
            as_fc    <= ln_fc;
            as_tc    <= ln_tc;
            as_vc    <= ln_vc;
            as_info  <= ln_info;
        end
        if (rst) begin
            as_valid <= 1'b0;
            as_long  <= 1'b0;
        end else if (adv) begin
            as_valid <= ln_valid;
            as_long  <= ln_valid && !lhm1_l[RW-1];
        end
    end

    wire unused = ^{pr_rec[INFO_W:FW], tb_rec[INFO_W:FW]};

endmodule

`resetall
