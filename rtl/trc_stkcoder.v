// trc_stkcoder: the stack mode coder (docs/format.md 4.7). One raw record per
// clock in, its coded bit string out, right-aligned with its end position,
// the same interface as trc_coder. A record's table index depends on the
// shadow stack and the previous key only, never on table contents, so stage
// P keeps the stack and reads the entry from block RAM (trc_ptab, two
// clocks) a stage before stage A uses it; the address comes from the state
// the P record leaves behind, so that loop closes in one clock.
// A record longer than MAXLEN bits (a miss with an escaped delta: up to
// FULL = MAXLEN + 20 bits at the paper's widths) leaves in two pieces on two
// clocks, so that the packer is as wide as paper mode's. Timing: the table
// address depends on the stage P record and the state only, not on whether
// the stages move (the table reads when they do).
// Parameters: NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, INFO_W, LANE_W, EW as
//   in trc_coder;
//   MAXLEN - longest piece out, at least half of FULL (trc_enc sets it)
//   LENW   - bits of a piece length, $clog2(MAXLEN + 1)
//   SK - predictor table index bits, 4..12
//   SD - shadow call stack depth, 1..64
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
    parameter MAXLEN = 57,
    parameter LENW   = 6,
    parameter LANE_W = 64,
    parameter EW     = 8,
    parameter SK     = 9,
    parameter SD     = 16
) (
    input  wire              clk,
    input  wire              rst,
    // ---- raw records in: {os, delta[NT-1:0], info[INFO_W-1:0]}
    input  wire [NT+INFO_W:0] s_rec,
    input  wire              s_valid,
    output wire              s_ready,
    // ---- coded records out (see trc_coder)
    output reg  [MAXLEN-1:0] m_bits,
    output reg  [EW-1:0]     m_endm1,
    output reg               m_flush,
    output reg               m_valid,
    input  wire              m_ready
);

    localparam NZ  = $clog2(NT + 1);
    localparam TSW = NZ + NT - 1;
    localparam FW  = 1 + FID_W;
    localparam PDW = 12;                 // stored delta, saturated
    localparam KBW = 6;                  // tracked bit length, 0..32
    localparam TW  = FW + PDW + KBW + 2; // entry {key, pd, kb, m, h}
    localparam DW  = (NT > PDW ? NT : PDW) + 1;
    localparam LW  = $clog2(NT + 1);     // bit length of a delta
    localparam TL  = 11 + TSW;           // tail: delta rank code + payload
    localparam PW  = TL + 9;             // NP code + tail
    localparam HV  = FID_W + (SK - 2 > 3 ? SK - 2 : 3) + 1;
    localparam [TYPE_W-1:0] T_END  = `TRC_T_END(TYPE_W);
    localparam [TYPE_W-1:0] T_SYNC = `TRC_T_SYNC(TYPE_W);
    localparam [PDW-1:0] PD_MAX = {PDW{1'b1}};
    localparam FW_C = ND_F + 1 + FID_W, OW_C = ND_T + TYPE_W + ND_V + VAL_W;
    localparam FULL = 21 + TSW + (FW_C > OW_C ? FW_C : OW_C); // longest record
    localparam FLW  = $clog2(FULL + 1);  // bits of a record length

    // Rank of a delta symbol, NP counted when pred: index {sym, j + 3
    // (L(j) only), m, h, pred}. Zigzag of j: L0, L+1, L-1, L+2, L-2, L+3,
    // L-3, L+4 -> 0..7; order with m: EQ NEAR after L0..L+3 (ranks 6, 7).
    function automatic [1023:0] rank_rom(input integer unused_arg);
        integer x, sy, jj, mm, hh, pp, zzv, bs, npp;
        begin
            rank_rom = {1024{1'b0}};
            for (x = 0; x < 256; x = x + 1) begin
                sy = x >> 6; jj = (x >> 3) & 7; mm = (x >> 2) & 1;
                hh = (x >> 1) & 1; pp = x & 1;
                zzv = jj < 3 ? 2 * (3 - jj) : jj == 3 ? 0 : 2 * (jj - 3) - 1;
                case (sy)
                    0:       bs = mm != 0 ? 6 : 0;
                    1:       bs = mm != 0 ? 7 : 1;
                    2:       bs = mm != 0 ? (zzv <= 5 ? zzv : zzv + 2) : zzv + 2;
                    default: bs = 10;
                endcase
                npp = hh == 0 ? 1 : mm != 0 ? 8 : 3;
                if (pp != 0 && bs >= npp)
                    bs = bs + 1;
                rank_rom[x*4 +: 4] = bs[3:0];
            end
        end
    endfunction
    localparam [1023:0] RANK_ROM = rank_rom(0);

    // The ones of the rank and NP codes from the rank code's first bit up:
    // rank ones, a zero, then (NP only) np_pos ones (np_pos 1, 3 or 8 by
    // h and m), by the rank's index. Logic, not a block RAM: registered,
    // a table of constants would become a block RAM ROM.
    localparam RUNW = 20;
    (* rom_style = "logic" *)
    reg [RUNW-1:0] run_tab [0:255];
    integer rx, rb, rk, npn;
    initial
        for (rx = 0; rx < 256; rx = rx + 1) begin
            rk  = {28'd0, RANK_ROM[rx*4 +: 4]};
            npn = ((rx >> 1) & 1) == 0 ? 1 : ((rx >> 2) & 1) != 0 ? 8 : 3;
            for (rb = 0; rb < RUNW; rb = rb + 1)
                run_tab[rx][rb] = rb < rk || ((rx & 1) == 0 && rb > rk && rb <= rk + npn);
        end

    // Five stages move together when the last is empty or taken: (P) the
    // record meets the call stack, its entry is read; (A) it meets its table
    // entry: delta symbol, prediction, entry update; (D) ranks, payload,
    // dictionaries; (B) lengths of its parts; (C) the bit string is
    // assembled; then the output register.
    // adv moves the output register; stages P to C wait while the first
    // piece of a long record leaves.
    wire adv = !m_valid || m_ready;
    wire hold;
    wire adv_p = adv && !hold;
    assign s_ready = adv_p;

    reg               p_valid;
    reg  [NT+INFO_W:0] p_rec;
    always @(posedge clk) begin
        if (adv_p)
            p_rec <= s_rec;
        if (rst)
            p_valid <= 1'b0;
        else if (adv_p)
            p_valid <= s_valid;
    end
    wire p_fire = p_valid && adv_p;

    // ---- stage P: shadow stack, previous key, table index
    wire [INFO_W-1:0] p_info  = p_rec[INFO_W-1:0];
    wire [FW-1:0]     p_fkey  = p_info[FW-1:0];
    wire [FID_W-1:0]  p_fid   = p_fkey[FID_W-1:0];
    wire              p_exit  = p_fkey[FID_W];
    wire              p_fn    = !p_rec[NT+INFO_W];
    wire              p_sync  = !p_fn && p_info[VAL_W +: TYPE_W] == T_SYNC;

    wire [FID_W-1:0] top, second;
    // exit == top, compared as the record enters stage P with the top
    // that the record ahead leaves (its id after a push, second after a
    // pop, 0 after SYNC): the compare is off the path from the stack to
    // the table address.
    wire [FID_W-1:0] s_fid = s_rec[FID_W-1:0];
    reg  xt_q;
    wire p_xtop = p_fn && p_exit && xt_q;
    reg  k_none, k_sync, k_os, k_push, k_pop, k_stay;
    wire xt_d = k_sync ? s_fid == {FID_W{1'b0}} : k_push ? s_fid == p_fid :
                k_pop ? s_fid == second : s_fid == top;
    always @(posedge clk)
        if (adv_p)
            xt_q <= xt_d;
    // What the P record does, one-hot, decoded as it enters: the table
    // address and the stack select on registers only.
    wire s_fn   = !s_rec[NT+INFO_W];
    wire s_exit = s_rec[FID_W];
    wire s_sync = !s_fn && s_rec[VAL_W +: TYPE_W] == T_SYNC;
    always @(posedge clk)
        if (rst) begin
            {k_none, k_sync, k_os, k_push, k_pop, k_stay} <= 6'b100000;
        end else if (adv_p) begin
            k_none <= !s_valid;
            k_sync <= s_valid && s_sync;
            k_os   <= s_valid && !s_fn && !s_sync;
            k_push <= s_valid && s_fn && !s_exit;
            k_pop  <= s_valid && s_fn && s_exit && xt_d;
            k_stay <= s_valid && s_fn && s_exit && !xt_d;
        end
    // The stack holds each id with its part of the index hash (h_top),
    // and the P record's key comes with its parts (p_htid, p_hprev), all
    // made as the values enter their registers: see the index below.
    wire [SK-1:0]    top_h, second_h;
    reg  [SK-1:0]    p_htid, p_hprev;
    trc_cstack #(.SD(SD), .W(SK + FID_W)) u_stack (
        .clk(clk), .rst(rst), .en(adv_p), .clr(k_sync),
        .push(k_push), .pop(k_pop),         // a pop when empty does nothing
        .id({p_htid, p_fid}), .top({top_h, top}), .second({second_h, second})
    );

    reg [SK-1:0] prev_h;                // h_prev of the previous key
    always @(posedge clk) begin
        if (rst || (p_fire && p_sync))
            prev_h <= {SK{1'b0}};
        else if (adv_p && p_valid && p_fn)
            prev_h <= p_hprev;
    end

    // Next context: the state after the stage P record, the next record's.
    // Without one, the state and so the address stay (idx_q).
    // Index: fold({top, prev exit flag} ^ pfid << 3 ^ pfid << (SK-2)),
    // XOR-folded to SK bits. It is linear, so it is the XOR of a part of
    // the top and a part of the previous key, each made as its value
    // enters a register (the stack keeps each id's part beside it): the
    // index is the XOR of two registers, and the exit == top compare
    // selects last.
    localparam NCH = (HV + SK - 1) / SK;
    function automatic [SK-1:0] fold(input [HV-1:0] v);
        integer c;
        reg [NCH*SK-1:0] vp;
        begin
            vp = {{(NCH*SK-HV){1'b0}}, v};
            fold = {SK{1'b0}};
            for (c = 0; c < NCH; c = c + 1)
                fold = fold ^ vp[c*SK +: SK];
        end
    endfunction
    function automatic [SK-1:0] h_top(input [FID_W-1:0] t);
        h_top = fold({{(HV-FW){1'b0}}, t, 1'b0});
    endfunction
    function automatic [SK-1:0] h_prev(input [FW-1:0] pv);
        h_prev = fold({{(HV-1){1'b0}}, pv[FID_W]} ^
                      ({{(HV-FID_W){1'b0}}, pv[FID_W-1:0]} << 3) ^
                      ({{(HV-FID_W){1'b0}}, pv[FID_W-1:0]} << (SK - 2)));
    endfunction
    always @(posedge clk)
        if (adv_p) begin
            p_htid  <= h_top(s_fid);
            p_hprev <= h_prev(s_rec[FW-1:0]);
        end
    wire [SK-1:0] h_push = p_hprev ^ p_htid;
    wire [SK-1:0] h_pop  = p_hprev ^ second_h;
    wire [SK-1:0] h_stay = p_hprev ^ top_h;
    wire [SK-1:0] h_os   = prev_h ^ top_h;

    // idx_q: the index of the current state, the P record's (0 after
    // reset: the reset state hashes to 0); its entry is being read. The
    // table reads on adv_p only, so the address does not wait for it.
    // A SYNC's next index is 0.
    reg  [SK-1:0] idx_q;
    wire [SK-1:0] raddr = {SK{k_push}} & h_push | {SK{k_pop}} & h_pop |
                          {SK{k_stay}} & h_stay | {SK{k_os}} & h_os |
                          {SK{k_none}} & idx_q;
    always @(posedge clk)
        if (rst)
            idx_q <= {SK{1'b0}};
        else if (adv_p)
            idx_q <= raddr;

    // ---- what depends on the delta only: its bit length as the record
    // enters stage P (from s_rec), the mantissa and timestamp code in stage
    // P; ready for stage A. The code is the mantissa (a prefix OR, no
    // shift) under the leading-zero count at a place set by the length
    // alone (a table of the length), the same code as trc_tscode's.
    wire [NT-1:0] s_delta = s_rec[INFO_W +: NT];
    reg  [LW-1:0] s_dlen;               // bit length of delta
    integer p;
    always @* begin
        s_dlen = {LW{1'b0}};
        for (p = 0; p < NT; p = p + 1)
            if (s_delta[p])
                s_dlen = p[LW-1:0] + 1'b1;
    end
    localparam [NZ-1:0]  NT_Z = NT[NZ-1:0];
    localparam [FLW-1:0] NZ_L = NZ[FLW-1:0];
    // the count field NT - dlen placed above the dlen - 1 mantissa bits
    // (NT alone for a zero delta)
    function automatic [TSW-1:0] zfield(input [LW-1:0] l);
        integer k;
        begin
            zfield = {{(TSW-NZ){1'b0}}, NT_Z};
            for (k = 1; k <= NT; k = k + 1)
                if (l == k[LW-1:0])
                    zfield = {{(TSW-NZ){1'b0}}, NT_Z - k[NZ-1:0]} << (k - 1);
        end
    endfunction
    reg  [LW-1:0]   p_dlen;
    always @(posedge clk)
        if (adv_p)
            p_dlen <= s_dlen;
    wire [NT-1:0] p_delta = p_rec[INFO_W +: NT];
    // the mantissa: the bits below the leading one, a prefix OR (no
    // length and shift on the way)
    reg  [NT-1:0]   p_above;            // a one above bit i
    integer q;
    always @* begin
        p_above[NT-1] = 1'b0;
        for (q = NT - 2; q >= 0; q = q - 1)
            p_above[q] = p_above[q+1] | p_delta[q+1];
    end
    wire [NT-1:0]   p_mant = p_delta & p_above;
    wire [TSW-1:0]  p_ts_code = {{(TSW-NT){1'b0}}, p_mant} | zfield(p_dlen);
    wire [FLW-1:0]  p_ts_len  = p_dlen == {LW{1'b0}} ? NZ_L :
                                NZ_L + {{(FLW-LW){1'b0}}, p_dlen} - 1'b1;
    wire [DW-1:0] p_dx  = {{(DW-NT){1'b0}}, p_delta};
    wire [DW-1:0] p_dm1 = p_dx - 1'b1;
    wire [DW-1:0] p_dp1 = p_dx + 1'b1;

    // ---- stage A registers
    reg               a_valid, a_xtop;
    reg  [LW-1:0]     a_dlen;
    reg  [KBW-1:0]    a_dlen3;            // dlen + 3
    reg  [TSW-1:0]    a_ts_code;
    reg  [FLW-1:0]    a_ts_len;
    reg  [NT-1:0]     a_mant;
    reg               a_eq_ok, a_up_ok, a_dn_ok;
    reg  [PDW-1:0]    a_d0, a_dm1, a_dp1;
    reg  [INFO_W:0]   a_rec;
    reg  [SK-1:0]     a_idx;
    always @(posedge clk) begin
        if (adv_p) begin
            a_rec  <= {!p_fn, p_info};     // the delta's codes come from P
            a_xtop <= p_xtop;
            a_idx  <= idx_q;
            a_dlen    <= p_dlen;
            a_dlen3   <= {{(KBW-LW){1'b0}}, p_dlen} + 6'd3;
            a_ts_code <= p_ts_code;
            a_ts_len  <= p_ts_len;
            a_mant    <= p_mant;
            a_eq_ok   <= p_dx[DW-1:PDW] == {(DW-PDW){1'b0}};
            a_up_ok   <= p_dm1[DW-1:PDW] == {(DW-PDW){1'b0}} && p_dx != {DW{1'b0}};
            a_dn_ok   <= p_dp1[DW-1:PDW] == {(DW-PDW){1'b0}};
            a_d0      <= p_dx[PDW-1:0];
            a_dm1     <= p_dm1[PDW-1:0];
            a_dp1     <= p_dp1[PDW-1:0];
        end
        if (rst)
            a_valid <= 1'b0;
        else if (adv_p)
            a_valid <= p_valid;
    end

    wire              os      = a_rec[INFO_W];
    wire [INFO_W-1:0] info    = a_rec[INFO_W-1:0];
    wire [FW-1:0]     fkey    = info[FW-1:0];
    wire [TYPE_W-1:0] otype   = info[VAL_W +: TYPE_W];
    wire [VAL_W-1:0]  oval    = info[VAL_W-1:0];
    wire              fn      = !os;
    wire is_sync = os && otype == T_SYNC;

    wire [TW-1:0] e_raw, e_fwd, e_new;
    wire          e_ok, e_hit;
    trc_ptab #(.SK(SK), .W(TW)) u_tab (
        .clk(clk), .rst(rst), .raddr(raddr), .ld(adv_p), .wpend(a_valid && fn),
        .cpend(a_valid && is_sync), .waddr(a_idx), .wdata(e_new),
        .rraw(e_raw), .rfwd(e_fwd), .rhit(e_hit), .rvalid(e_ok)
    );
    wire xtop = a_xtop;
    wire [LW-1:0]  dlen   = a_dlen;
    wire [KBW-1:0] dlen_k = {{(KBW-LW){1'b0}}, dlen};

    // ---- stage A: what the entry says, worked out for each of the three
    // entries it can be (zero when invalid, the RAM's word, a forwarded
    // write); the valid flag and the forwarding hit, the slow signals,
    // select last. Per candidate:
    // - the event class: pred (the entry's key is this function);
    // - the delta symbol (EQ, NEAR, L(j) for j in -3..4, ESC): delta == pd,
    //   delta - 1 == pd, delta + 1 == pd, the sides that do not depend on
    //   the entry from stage P (pd < 2^PDW); j = dlen - kb, L(j) <=>
    //   jp3 = j + 3 in 0..7;
    // - the entry's kb after this record: one step toward dlen, one compare
    //   selecting among kb - 1, kb + 1 and kb made in parallel.
    localparam CW = 1 + 1 + 2 + 3 + KBW + 1 + 2;
    wire [CW-1:0] cand [0:2];
    genvar c;
    generate
        for (c = 0; c < 3; c = c + 1) begin : g_cand
            wire [TW-1:0]  ent  = c == 0 ? {TW{1'b0}} : c == 1 ? e_raw : e_fwd;
            wire [FW-1:0]  r_key = ent[TW-1 -: FW];
            wire [PDW-1:0] r_pd  = ent[KBW+2 +: PDW];
            wire [KBW-1:0] r_kb  = ent[2 +: KBW];
            wire pred    = fn && fkey == r_key;
            wire eq      = a_eq_ok && a_d0 == r_pd;
            wire near_up = a_up_ok && a_dm1 == r_pd;
            wire near_dn = a_dn_ok && a_dp1 == r_pd;
            wire [7:0] jp3  = {2'b00, a_dlen3} - {2'b00, r_kb};
            wire       in_l = dlen != {LW{1'b0}} && jp3[7:3] == 5'd0;
            wire [1:0] sym  = eq ? 2'd0 : (near_up || near_dn) ? 2'd1 : in_l ? 2'd2 : 2'd3;
            wire [KBW-1:0] kb_dec = r_kb - 1'b1, kb_inc = r_kb + 1'b1;
            // (constant for the zero candidate, which is the point)
            /* verilator lint_off UNSIGNED */
            wire [KBW-1:0] kb_upd = dlen_k < r_kb ? kb_dec : dlen_k != r_kb ? kb_inc : r_kb;
            /* verilator lint_on UNSIGNED */
            assign cand[c] = {pred, near_dn, sym, jp3[2:0], kb_upd,
                              !(eq || near_up || near_dn), ent[1:0]};
        end
    endgenerate
    wire [CW-1:0] csel = !e_ok ? cand[0] : e_hit ? cand[2] : cand[1];
    wire           pred    = csel[CW-1];
    wire           near_dn = csel[CW-2];
    wire [1:0]     sym     = csel[CW-3 -: 2];
    wire [2:0]     jp3     = csel[CW-5 -: 3];
    wire [KBW-1:0] kb_new  = csel[2 + 1 +: KBW];
    wire           e_miss  = csel[2];          // no EQ or NEAR: the m bit
    wire           e_m     = csel[1];
    wire           e_h     = csel[0];
    wire [PDW-1:0] pd_new  = a_eq_ok ? a_d0 : PD_MAX;
    assign e_new = {fkey, pd_new, kb_new, e_miss, pred};

    // ---- stage D registers: the record's symbol and class, for its
    // ranks, payload and dictionaries (datapath not reset, valid is)
    reg               d_valid, d_pred, d_xtop, d_m, d_h, d_near_dn;
    reg  [1:0]        d_sym;
    reg  [2:0]        d_j;
    reg  [LW-1:0]     d_dlen;
    reg  [TSW-1:0]    d_ts_code;
    reg  [FLW-1:0]    d_ts_len;
    reg  [NT-1:0]     d_mant;
    reg  [INFO_W:0]   d_rec;
    always @(posedge clk) begin
        if (adv_p) begin
            d_pred    <= pred;
            d_xtop    <= xtop;
            d_m       <= e_m;
            d_h       <= e_h;
            d_near_dn <= near_dn;
            d_sym     <= sym;
            d_j       <= jp3;
            d_dlen    <= dlen;
            d_ts_code <= a_ts_code;
            d_ts_len  <= a_ts_len;
            d_mant    <= a_mant;
            d_rec     <= a_rec;
        end
        if (rst)
            d_valid <= 1'b0;
        else if (adv_p)
            d_valid <= a_valid;
    end
    wire              d_os    = d_rec[INFO_W];
    wire [INFO_W-1:0] d_info  = d_rec[INFO_W-1:0];
    wire [TYPE_W-1:0] d_otype = d_info[VAL_W +: TYPE_W];
    wire              d_end   = d_os && d_otype == T_END;
    wire              d_sync  = d_os && d_otype == T_SYNC;

    // NP's position in the order (np_pos 1, 3, 8), as a code 0, 1, 2
    wire [1:0] np_sel = !d_h ? 2'd0 : d_m ? 2'd2 : 2'd1;
    // rank in the mode's order (docs/format.md 4.7): a table of 8 bits
    // (LUT logic, no carry chains)
    wire [3:0] rank = RANK_ROM[{d_sym, d_j, d_m, d_h, d_pred}*4 +: 4];

    // payload, right-aligned
    reg  [TSW-1:0]  pl;
    always @* begin
        case (d_sym)
            2'd0:    pl = {TSW{1'b0}};
            2'd1:    pl = {{(TSW-1){1'b0}}, d_near_dn};
            2'd2:    pl = {{(TSW-NT){1'b0}}, d_mant};
            default: pl = d_ts_code;
        endcase
    end
    // start of the rank code: payload length, + 1 unless ESC (the rank
    // code's closing 0); mantissa length + 1 = dlen
    reg  [FLW:0]    r_lo;
    always @* begin
        case (d_sym)
            2'd0:    r_lo = 1;
            2'd1:    r_lo = 2;
            2'd2:    r_lo = {{(FLW+1-LW){1'b0}}, d_dlen};
            default: r_lo = {1'b0, d_ts_len};
        endcase
    end

    // ---- stage D: dictionaries (class F and OS records only); they
    // compare stage A's keys as they enter (trc_dictp)
    wire            f_hit, t_hit, v_hit;
    wire [ND_F-1:0] f_code;
    wire [ND_T-1:0] t_code;
    wire [ND_V-1:0] v_code;
    wire            d_clr = d_valid && d_sync;
    trc_dictp #(.ND(ND_F), .W(FW), .FLIP(1)) u_fdict (
        .clk(clk), .rst(rst), .adv(adv_p), .key_in(fkey), .clr(d_clr),
        .upd(d_valid && !d_os && !d_pred && !d_xtop), .hit(f_hit), .code(f_code)
    );
    trc_dictp #(.ND(ND_T), .W(TYPE_W), .FLIP(0)) u_tdict (
        .clk(clk), .rst(rst), .adv(adv_p), .key_in(otype), .clr(d_clr),
        .upd(d_valid && d_os), .hit(t_hit), .code(t_code)
    );
    trc_dictp #(.ND(ND_V), .W(VAL_W), .FLIP(0)) u_vdict (
        .clk(clk), .rst(rst), .adv(adv_p), .key_in(oval), .clr(d_clr),
        .upd(d_valid && d_os), .hit(v_hit), .code(v_code)
    );

    // ---- stage B registers
    localparam RW = FLW + 1;    // room for sums of lengths
    reg              b_valid, b_np, b_flush, b_os, b_xtop;
    reg              b_fh, b_th, b_vh;
    reg [RUNW-1:0]   b_run;
    reg [TSW-1:0]    b_pl;
    reg [RW-1:0]     b_r_lo;
    reg [1:0]        b_nsel;
    reg [RW-1:0]     b_r_hi;
    reg [ND_F-1:0]   b_fc;
    reg [ND_T-1:0]   b_tc;
    reg [ND_V-1:0]   b_vc;
    reg [INFO_W-1:0] b_info;
    always @(posedge clk) begin
        if (adv_p) begin
            b_np     <= !d_pred;
            b_flush  <= d_end || d_sync;
            b_os     <= d_os;
            b_xtop   <= d_xtop;
            b_fh     <= f_hit;
            b_th     <= t_hit;
            b_vh     <= v_hit;
            b_run    <= run_tab[{d_sym, d_j, d_m, d_h, d_pred}];
            b_pl     <= pl;
            b_r_lo   <= r_lo;
            b_nsel   <= np_sel;
            b_r_hi   <= r_lo + {{(RW-4){1'b0}}, rank};
            b_fc     <= f_code;
            b_tc     <= t_code;
            b_vc     <= v_code;
            b_info   <= d_info;
        end
        if (rst)
            b_valid <= 1'b0;
        else if (adv_p)
            b_valid <= d_valid;
    end

    // ---- stage B: lengths. tail = rank code over the payload, NP code
    // over the tail, event fields after an NP: class 0 (exit of top),
    // 10 + function code, 11 + type and value codes. The rank code's end
    // (r_hi) comes from stage D, the NP code and event fields' length from
    // a table: one adder into c_len and one, in parallel, into c_len_hi.
    localparam integer E_FH = 2 + ND_F, E_FM = 2 + ND_F + FW;
    localparam integer E_HH = 2 + ND_T + ND_V, E_HM = E_HH + VAL_W;
    localparam integer E_MH = E_HH + TYPE_W, E_MM = E_HH + TYPE_W + VAL_W;
    // event kind: 0 none, 1 exit of top, 2 function hit, 3 miss, 4..7 OS
    // with {type hit, value hit} = 11, 10, 01, 00
    reg  [2:0]    ev_k;
    always @* begin
        ev_k = 3'd0;
        if (b_np) begin
            if (!b_os && b_xtop)
                ev_k = 3'd1;
            else if (!b_os && b_fh)
                ev_k = 3'd2;
            else if (!b_os)
                ev_k = 3'd3;
            else
                case ({b_th, b_vh})
                    2'b11:   ev_k = 3'd4;
                    2'b10:   ev_k = 3'd5;
                    2'b01:   ev_k = 3'd6;
                    default: ev_k = 3'd7;
                endcase
        end
    end
    // np_pos + 1 + event length by {NP position code, ev_k}, 0 without NP;
    // less OFF (RW bits per entry, two's complement)
    function automatic [32*RW-1:0] npev_rom(input integer off);
        integer x, k, v;
        begin
            npev_rom = {32*RW{1'b0}};
            for (x = 0; x < 32; x = x + 1) begin
                k = x & 7;
                case (k)
                    0: v = 0;
                    1: v = 1;
                    2: v = E_FH;
                    3: v = E_FM;
                    4: v = E_HH;
                    5: v = E_HM;
                    6: v = E_MH;
                    default: v = E_MM;
                endcase
                if (k != 0)
                    v = v + ((x >> 3) == 0 ? 2 : (x >> 3) == 1 ? 4 : 9);
                v = v - off;
                npev_rom[x*RW +: RW] = v[RW-1:0];
            end
        end
    endfunction
    // The length, and in parallel (two's complement) the length less 1,
    // less MAXLEN, and less MAXLEN + 1, whose sign says the record is
    // long: the output register's end and end - 1 then each take one
    // adder after a select among registers.
    localparam [32*RW-1:0] NPEV_ROM   = npev_rom(0), NPEV1_ROM = npev_rom(1);
    localparam [32*RW-1:0] NPEVM_ROM  = npev_rom(MAXLEN);
    localparam [32*RW-1:0] NPEVM1_ROM = npev_rom(MAXLEN + 1);
    localparam [RW-1:0] MAXLEN_R = MAXLEN[RW-1:0], MAXLEN1_R = MAXLEN_R - 1'b1;
    wire [4:0]    ne     = {b_nsel, ev_k};
    wire [RW-1:0] len_b  = b_r_hi + NPEV_ROM[ne*RW +: RW];
    wire [RW-1:0] lm1_b  = b_r_hi + NPEV1_ROM[ne*RW +: RW];
    wire [RW-1:0] lhi_b  = b_r_hi + NPEVM_ROM[ne*RW +: RW];
    wire [RW-1:0] lhm1_b = b_r_hi + NPEVM1_ROM[ne*RW +: RW];

    // the rank code and the NP code: looked up in stage D (run_tab), shifted
    // over the payload, no adder on the way
    wire [PW-1:0]   pre = {{(PW-TSW){1'b0}}, b_pl} | ({{(PW-RUNW){1'b0}}, b_run} << b_r_lo);

    // ---- stage C registers
    reg              c_valid, c_flush;
    reg [2:0]        c_ev_k;
    reg              c_long;
    reg [RW-1:0]     c_len, c_len_hi, c_lm1, c_lhm1;
    reg [PW-1:0]     c_pre;
    reg [ND_F-1:0]   c_fc;
    reg [ND_T-1:0]   c_tc;
    reg [ND_V-1:0]   c_vc;
    reg [INFO_W-1:0] c_info;
    always @(posedge clk) begin
        if (adv_p) begin
            c_flush  <= b_flush;
            c_ev_k   <= ev_k;
            c_pre    <= pre;
            c_len    <= len_b;
            c_len_hi <= lhi_b;
            c_lm1    <= lm1_b;
            c_lhm1   <= lhm1_b;
            c_fc     <= b_fc;
            c_tc     <= b_tc;
            c_vc     <= b_vc;
            c_info   <= b_info;
        end
        if (rst) begin
            c_valid <= 1'b0;
            c_long  <= 1'b0;
        end else if (adv_p) begin
            c_valid <= b_valid;
            c_long  <= b_valid && !lhm1_b[RW-1];
        end
    end

    // ---- stage C: the bit string, event fields in constant layouts
    wire [FW-1:0]     c_fkey = c_info[FW-1:0];
    wire [TYPE_W-1:0] c_type = c_info[VAL_W +: TYPE_W];
    wire [VAL_W-1:0]  c_val  = c_info[VAL_W-1:0];
    wire [FULL-1:0]   pre_f  = {{(FULL-PW){1'b0}}, c_pre};
    reg  [FULL-1:0]   bits_c;
    always @* begin
        case (c_ev_k)
            3'd1: bits_c = pre_f << 1;
            3'd2: bits_c = (pre_f << E_FH) | {{(FULL-E_FH){1'b0}}, 2'b10, c_fc};
            3'd3: bits_c = (pre_f << E_FM) | {{(FULL-E_FM){1'b0}}, 2'b10, c_fc, c_fkey};
            3'd4: bits_c = (pre_f << E_HH) | {{(FULL-E_HH){1'b0}}, 2'b11, c_tc, c_vc};
            3'd5: bits_c = (pre_f << E_HM) | {{(FULL-E_HM){1'b0}}, 2'b11, c_tc, c_vc, c_val};
            3'd6: bits_c = (pre_f << E_MH) | {{(FULL-E_MH){1'b0}}, 2'b11, c_tc, c_type, c_vc};
            3'd7: bits_c = (pre_f << E_MM) |
                           {{(FULL-E_MM){1'b0}}, 2'b11, c_tc, c_type, c_vc, c_val};
            default: bits_c = pre_f;
        endcase
    end

    // ---- pieces: a record longer than MAXLEN leaves as its top
    // len - MAXLEN bits; its low MAXLEN bits wait in tail_q and leave on
    // the next clock (split_q), while stages P to C hold.
    reg              split_q, tail_flush_q;
    reg [MAXLEN-1:0] tail_q;
    wire             long_c = c_long;
    assign hold = split_q;
    wire [FULL-1:0]   hi_c   = bits_c >> MAXLEN;
    wire [MAXLEN-1:0] piece  = split_q ? tail_q : long_c ? hi_c[MAXLEN-1:0]
                                                         : bits_c[MAXLEN-1:0];
    wire [RW-1:0]     plen_r = split_q ? MAXLEN_R : long_c ? c_len_hi : c_len;
    wire [RW-1:0]     plm1_r = split_q ? MAXLEN1_R : long_c ? c_lhm1 : c_lm1;
    wire              pflush = split_q ? tail_flush_q : c_flush && !long_c;
    wire              pvalid = split_q || c_valid;
    always @(posedge clk) begin
        if (adv && !split_q) begin
            tail_q       <= bits_c[MAXLEN-1:0];
            tail_flush_q <= c_flush;
        end
        if (rst)
            split_q <= 1'b0;
        else if (adv)
            split_q <= !split_q && long_c;
    end

    // ---- output register (as trc_coder): end position in the word stream
    localparam OWL = $clog2(LANE_W);
    reg  [OWL-1:0] ph_q;
    wire [EW-1:0]  ph_e  = {{(EW-OWL){1'b0}}, ph_q};
    wire [EW-1:0]  len_e = {{(EW-LENW){1'b0}}, plen_r[LENW-1:0]};
    wire [EW-1:0]  lm1_e = {{(EW-LENW){1'b0}}, plm1_r[LENW-1:0]};
    wire [EW-1:0]  end_b = ph_e + len_e;
    always @(posedge clk) begin
        if (adv) begin
            m_bits  <= piece;
            m_endm1 <= ph_e + lm1_e;    // end_b - 1, len >= 1
            m_flush <= pflush;
        end
        if (rst)
            ph_q <= {OWL{1'b0}};
        else if (adv && pvalid)
            ph_q <= pflush ? {OWL{1'b0}} : end_b[OWL-1:0];
        if (rst)
            m_valid <= 1'b0;
        else if (adv)
            m_valid <= pvalid;
    end

    // Info bits a record kind does not use are ignored (docs/rtl.md).
    wire unused = ^{c_info, plen_r[RW-1:LENW], plm1_r[RW-1:LENW], hi_c[FULL-1:MAXLEN],
                   end_b[EW-1:OWL]};

endmodule

`resetall
