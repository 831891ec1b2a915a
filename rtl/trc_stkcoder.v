// trc_stkcoder: the stack mode coder (docs/format.md 4.7). One raw record per
// clock in, its coded bit string out, right-aligned with its end position,
// the same interface as trc_coder. The predictor entry for a record is read
// from block RAM (trc_ptab) while the previous record is being coded: its
// address comes from the state that record leaves behind (next top of the
// shadow stack, next previous key), so the loop closes in one clock.
// A record longer than MAXLEN bits (a miss with an escaped delta: up to
// FULL = MAXLEN + 20 bits at the paper's widths) leaves in two pieces on two
// clocks, so that the packer is as wide as paper mode's. Timing: the table
// address depends on the stage A record and the state only, and whether the
// record leaves (fire) selects it last; stalls come from flops.
// Parameters: NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, INFO_W, OUT_W, EW as
//   in trc_coder;
//   MAXLEN - longest piece out, at least half of FULL (trc_enc sets it)
//   LENW   - bits of a piece length, $clog2(MAXLEN + 1)
//   SK - predictor table index bits, 4..12
//   SD - shadow call stack depth, 1..64
`default_nettype none

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
    parameter OUT_W  = 64,
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
    output reg  [EW-1:0]     m_end,
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
    localparam [TYPE_W-1:0] T_END  = {TYPE_W{1'b1}} - 1'b1;
    localparam [TYPE_W-1:0] T_SYNC = {TYPE_W{1'b1}} - {{(TYPE_W-2){1'b0}}, 2'd2};
    localparam [PDW-1:0] PD_MAX = {PDW{1'b1}};
    localparam FW_C = ND_F + 1 + FID_W, OW_C = ND_T + TYPE_W + ND_V + VAL_W;
    localparam FULL = 21 + TSW + (FW_C > OW_C ? FW_C : OW_C); // longest record
    localparam FLW  = $clog2(FULL + 1);  // bits of a record length

    // Three stages move together when the last is empty or taken: (A) the
    // record meets its table entry: symbol, ranks, dictionaries, state
    // update; (B) the bit string is assembled; then the output register.
    // adv moves the output register; stages A and B wait while the first
    // piece of a long record leaves.
    wire adv = !m_valid || m_ready;
    wire hold;
    wire adv_ab = adv && !hold;
    assign s_ready = adv_ab;

    reg               a_valid;
    reg  [NT+INFO_W:0] a_rec;
    always @(posedge clk) begin
        if (adv_ab)
            a_rec <= s_rec;
        if (rst)
            a_valid <= 1'b0;
        else if (adv_ab)
            a_valid <= s_valid;
    end
    wire fire = a_valid && adv_ab;

    // ---- stage A fields
    wire              os      = a_rec[NT+INFO_W];
    wire [NT-1:0]     delta   = a_rec[INFO_W +: NT];
    wire [INFO_W-1:0] info    = a_rec[INFO_W-1:0];
    wire [FW-1:0]     fkey    = info[FW-1:0];
    wire [FID_W-1:0]  fid     = fkey[FID_W-1:0];
    wire              is_exit = fkey[FID_W];
    wire [TYPE_W-1:0] otype   = info[VAL_W +: TYPE_W];
    wire [VAL_W-1:0]  oval    = info[VAL_W-1:0];
    wire              fn      = !os;
    wire is_end  = os && otype == T_END;
    wire is_sync = os && otype == T_SYNC;

    // ---- state: shadow stack, previous key, predictor table
    wire [FID_W-1:0] top, second;
    wire             st_empty;
    wire             pop = fn && is_exit && !st_empty && top == fid;
    trc_cstack #(.SD(SD), .W(FID_W)) u_stack (
        .clk(clk), .rst(rst), .clr(fire && is_sync),
        .push(fire && fn && !is_exit), .pop(fire && pop), .id(fid),
        .top(top), .second(second), .empty(st_empty)
    );

    reg [FW-1:0] prev_q;
    always @(posedge clk) begin
        if (rst || (fire && is_sync))
            prev_q <= {FW{1'b0}};
        else if (fire && fn)
            prev_q <= fkey;
    end

    // Next context: the state after the stage A record, for the case that it
    // leaves now. When it does not, the state and so the address stay
    // (idx_q): fire only selects, at the end of the path to the RAM.
    reg [FID_W-1:0] nx_top;
    reg [FW-1:0]    nx_prev;
    always @* begin
        nx_top  = top;
        nx_prev = prev_q;
        if (is_sync) begin
            nx_top  = {FID_W{1'b0}};
            nx_prev = {FW{1'b0}};
        end else if (fn) begin
            nx_prev = fkey;
            nx_top  = !is_exit ? fid : pop ? second : top;
        end
    end

    // Index: ({top, prev exit flag} ^ pfid << 3 ^ pfid << (SK-2)), XOR-folded.
    wire [HV-1:0] hv = {{(HV-FW){1'b0}}, nx_top, nx_prev[FID_W]} ^
                       ({{(HV-FID_W){1'b0}}, nx_prev[FID_W-1:0]} << 3) ^
                       ({{(HV-FID_W){1'b0}}, nx_prev[FID_W-1:0]} << (SK - 2));
    localparam NCH = (HV + SK - 1) / SK;
    wire [NCH*SK-1:0] hv_pad = {{(NCH*SK-HV){1'b0}}, hv};
    reg  [SK-1:0]     nx_idx;
    integer c;
    always @* begin
        nx_idx = {SK{1'b0}};
        for (c = 0; c < NCH; c = c + 1)
            nx_idx = nx_idx ^ hv_pad[c*SK +: SK];
    end

    // idx_q: the address of the entry now in e, the index of the current
    // state (0 after reset: the reset state hashes to 0).
    reg  [SK-1:0] idx_q;
    wire [SK-1:0] raddr = fire ? nx_idx : idx_q;
    always @(posedge clk)
        if (rst)
            idx_q <= {SK{1'b0}};
        else
            idx_q <= raddr;

    wire [TW-1:0] e, e_new;
    wire          we = fire && fn;
    trc_ptab #(.SK(SK), .W(TW)) u_tab (
        .clk(clk), .rst(rst), .clr(fire && is_sync), .raddr(raddr),
        .same(idx_q == nx_idx), .we(we), .waddr(idx_q), .wdata(e_new), .rdata(e)
    );
    wire [FW-1:0]  e_key = e[TW-1 -: FW];
    wire [PDW-1:0] e_pd  = e[KBW+2 +: PDW];
    wire [KBW-1:0] e_kb  = e[2 +: KBW];
    wire           e_m   = e[1];
    wire           e_h   = e[0];

    // ---- stage A: event class
    wire pred = fn && fkey == e_key;
    wire xtop = fn && is_exit && fid == top;

    // ---- stage A: delta symbol (EQ, NEAR, L(j) for j in -3..4, ESC)
    wire [DW-1:0] dx  = {{(DW-NT){1'b0}}, delta};
    wire [DW-1:0] pdx = {{(DW-PDW){1'b0}}, e_pd};
    wire eq      = dx == pdx;
    wire near_up = dx == pdx + 1'b1;
    wire near_dn = dx + 1'b1 == pdx;
    reg  [LW-1:0] dlen;               // bit length of delta
    integer p;
    always @* begin
        dlen = {LW{1'b0}};
        for (p = 0; p < NT; p = p + 1)
            if (delta[p])
                dlen = p[LW-1:0] + 1'b1;
    end
    wire signed [7:0] j = $signed({{(8-LW){1'b0}}, dlen}) - $signed({2'b00, e_kb});
    wire in_l = dlen != {LW{1'b0}} && j >= -8'sd3 && j <= 8'sd4;
    // zigzag of j: L0, L+1, L-1, L+2, L-2, L+3, L-3, L+4 -> 0..7
    wire [7:0] nj = -j;
    wire [3:0] zz = j[7] ? {nj[2:0], 1'b0} :
                    j == 8'sd0 ? 4'd0 : {j[2:0], 1'b0} - 1'b1;
    wire [1:0] sym = eq ? 2'd0 : (near_up || near_dn) ? 2'd1 : in_l ? 2'd2 : 2'd3;
    // rank in the mode's order (docs/format.md 4.7), NP not counted
    reg [3:0] base;
    always @* begin
        case (sym)
            2'd0:    base = e_m ? 4'd6 : 4'd0;
            2'd1:    base = e_m ? 4'd7 : 4'd1;
            2'd2:    base = e_m ? (zz <= 4'd5 ? zz : zz + 4'd2) : zz + 4'd2;
            default: base = 4'd10;
        endcase
    end
    wire [3:0] np_pos = !e_h ? 4'd1 : e_m ? 4'd8 : 4'd3;
    wire [3:0] rank   = pred && base >= np_pos ? base + 1'b1 : base;

    // payload, right-aligned
    localparam [FLW-1:0] NZ_L = NZ[FLW-1:0];
    wire [TSW-1:0]  ts_code;
    wire [FLW-1:0]  ts_len;
    trc_tscode #(.NT(NT), .NZ(NZ), .CW(TSW), .LW(FLW)) u_ts (
        .delta(delta), .code(ts_code), .len(ts_len)
    );
    wire [FLW-1:0]  mant_len = {{(FLW-LW){1'b0}}, dlen} - 1'b1;
    wire [NT-1:0]   mant = delta & ~({NT{1'b1}} << mant_len);
    reg  [TSW-1:0]  pl;
    reg  [FLW-1:0]  pl_len;
    always @* begin
        case (sym)
            2'd0: begin pl = {TSW{1'b0}}; pl_len = {FLW{1'b0}}; end
            2'd1: begin pl = {{(TSW-1){1'b0}}, near_dn}; pl_len = 1; end
            2'd2: begin pl = {{(TSW-NT){1'b0}}, mant}; pl_len = mant_len; end
            default: begin pl = ts_code; pl_len = ts_len; end
        endcase
    end
    wire unused_nz = ^NZ_L;

    // ---- stage A: dictionaries (class F and OS records only)
    wire            f_hit, t_hit, v_hit;
    wire [ND_F-1:0] f_code;
    wire [ND_T-1:0] t_code;
    wire [ND_V-1:0] v_code;
    trc_dict #(.ND(ND_F), .W(FW), .FLIP(1)) u_fdict (
        .clk(clk), .rst(rst), .clr(fire && is_sync), .key(fkey),
        .upd(fire && fn && !pred && !xtop), .hit(f_hit), .code(f_code)
    );
    trc_dict #(.ND(ND_T), .W(TYPE_W), .FLIP(0)) u_tdict (
        .clk(clk), .rst(rst), .clr(fire && is_sync), .key(otype),
        .upd(fire && os), .hit(t_hit), .code(t_code)
    );
    trc_dict #(.ND(ND_V), .W(VAL_W), .FLIP(0)) u_vdict (
        .clk(clk), .rst(rst), .clr(fire && is_sync), .key(oval),
        .upd(fire && os), .hit(v_hit), .code(v_code)
    );

    // ---- stage A: the entry after this record
    wire [KBW-1:0] dlen6 = {{(KBW-LW){1'b0}}, dlen};
    wire [KBW-1:0] kb_new = dlen6 > e_kb ? e_kb + 1'b1 :
                            dlen6 < e_kb ? e_kb - 1'b1 : e_kb;
    wire [PDW-1:0] pd_new = dx > {{(DW-PDW){1'b0}}, PD_MAX} ? PD_MAX : dx[PDW-1:0];
    assign e_new = {fkey, pd_new, kb_new, !(eq || near_up || near_dn), pred};

    // ---- stage B registers (datapath not reset, valid is)
    reg              b_valid, b_np, b_last, b_flush, b_os, b_xtop;
    reg              b_fh, b_th, b_vh;
    reg [3:0]        b_rank, b_npos;
    reg [TSW-1:0]    b_pl;
    reg [FLW-1:0]    b_pl_len;
    reg [ND_F-1:0]   b_fc;
    reg [ND_T-1:0]   b_tc;
    reg [ND_V-1:0]   b_vc;
    reg [INFO_W-1:0] b_info;
    always @(posedge clk) begin
        if (adv_ab) begin
            b_np     <= !pred;
            b_last   <= sym == 2'd3;
            b_flush  <= is_end || is_sync;
            b_os     <= os;
            b_xtop   <= xtop;
            b_fh     <= f_hit;
            b_th     <= t_hit;
            b_vh     <= v_hit;
            b_rank   <= rank;
            b_npos   <= np_pos;
            b_pl     <= pl;
            b_pl_len <= pl_len;
            b_fc     <= f_code;
            b_tc     <= t_code;
            b_vc     <= v_code;
            b_info   <= info;
        end
        if (rst)
            b_valid <= 1'b0;
        else if (adv_ab)
            b_valid <= a_valid;
    end

    // ---- stage B: tail = rank code over the payload; NP code over the tail
    localparam RW = FLW + 1;    // room for sums of lengths
    wire [RW-1:0] r_lo   = {1'b0, b_pl_len} + {{(RW-1){1'b0}}, !b_last};
    wire [RW-1:0] r_hi   = r_lo + {{(RW-4){1'b0}}, b_rank};
    wire [RW-1:0] n_lo   = r_hi + 1'b1;
    wire [RW-1:0] n_hi   = n_lo + {{(RW-4){1'b0}}, b_npos};
    reg  [PW-1:0] pre;
    integer i;
    always @* begin
        pre = {{(PW-TSW){1'b0}}, b_pl};
        for (i = 0; i < PW; i = i + 1)
            if ((i >= r_lo && i < r_hi) || (b_np && i >= n_lo && i < n_hi))
                pre[i] = 1'b1;
    end
    wire [RW-1:0] pre_len = b_np ? n_hi : r_hi;

    // event fields after an NP: class 0 (exit of top), 10 + function code,
    // 11 + type and value codes; constant layouts, one per case
    wire [FW-1:0]     b_fkey = b_info[FW-1:0];
    wire [TYPE_W-1:0] b_type = b_info[VAL_W +: TYPE_W];
    wire [VAL_W-1:0]  b_val  = b_info[VAL_W-1:0];
    localparam integer E_FH = 2 + ND_F, E_FM = 2 + ND_F + FW;
    localparam integer E_HH = 2 + ND_T + ND_V, E_HM = E_HH + VAL_W;
    localparam integer E_MH = E_HH + TYPE_W, E_MM = E_HH + TYPE_W + VAL_W;
    reg [FULL-1:0]   bits_b;
    reg [RW-1:0]     ev_len;
    always @* begin
        bits_b = {{(FULL-PW){1'b0}}, pre};
        ev_len = {RW{1'b0}};
        if (b_np) begin
            if (!b_os && b_xtop) begin
                bits_b = bits_b << 1;
                ev_len = 1;
            end else if (!b_os && b_fh) begin
                bits_b = (bits_b << E_FH) | {{(FULL-E_FH){1'b0}}, 2'b10, b_fc};
                ev_len = E_FH[RW-1:0];
            end else if (!b_os) begin
                bits_b = (bits_b << E_FM) | {{(FULL-E_FM){1'b0}}, 2'b10, b_fc, b_fkey};
                ev_len = E_FM[RW-1:0];
            end else begin
                case ({b_th, b_vh})
                    2'b11: begin
                        bits_b = (bits_b << E_HH) |
                                 {{(FULL-E_HH){1'b0}}, 2'b11, b_tc, b_vc};
                        ev_len = E_HH[RW-1:0];
                    end
                    2'b10: begin
                        bits_b = (bits_b << E_HM) |
                                 {{(FULL-E_HM){1'b0}}, 2'b11, b_tc, b_vc, b_val};
                        ev_len = E_HM[RW-1:0];
                    end
                    2'b01: begin
                        bits_b = (bits_b << E_MH) |
                                 {{(FULL-E_MH){1'b0}}, 2'b11, b_tc, b_type, b_vc};
                        ev_len = E_MH[RW-1:0];
                    end
                    default: begin
                        bits_b = (bits_b << E_MM) |
                                 {{(FULL-E_MM){1'b0}}, 2'b11, b_tc, b_type, b_vc, b_val};
                        ev_len = E_MM[RW-1:0];
                    end
                endcase
            end
        end
    end
    wire [RW-1:0] len_b = pre_len + ev_len;

    // ---- pieces: a record longer than MAXLEN leaves as its top
    // len_b - MAXLEN bits; its low MAXLEN bits wait in tail_q and leave on
    // the next clock (split_q), while stages A and B hold.
    localparam [RW-1:0] MAXLEN_R = MAXLEN[RW-1:0];
    reg              split_q, tail_flush_q;
    reg [MAXLEN-1:0] tail_q;
    wire             long_b = b_valid && len_b > MAXLEN_R;
    assign hold = split_q;
    wire [FULL-1:0]   hi_b   = bits_b >> MAXLEN;
    wire [MAXLEN-1:0] piece  = split_q ? tail_q : long_b ? hi_b[MAXLEN-1:0]
                                                         : bits_b[MAXLEN-1:0];
    wire [RW-1:0]     plen_r = split_q ? MAXLEN_R : long_b ? len_b - MAXLEN_R : len_b;
    wire              pflush = split_q ? tail_flush_q : b_flush && !long_b;
    wire              pvalid = split_q || b_valid;
    always @(posedge clk) begin
        if (adv && !split_q) begin
            tail_q       <= bits_b[MAXLEN-1:0];
            tail_flush_q <= b_flush;
        end
        if (rst)
            split_q <= 1'b0;
        else if (adv)
            split_q <= !split_q && long_b;
    end

    // ---- output register (as trc_coder): end position in the word stream
    localparam OWL = $clog2(OUT_W);
    reg  [OWL-1:0] ph_q;
    wire [EW-1:0]  ph_e  = {{(EW-OWL){1'b0}}, ph_q};
    wire [EW-1:0]  len_e = {{(EW-LENW){1'b0}}, plen_r[LENW-1:0]};
    wire [EW-1:0]  end_b = ph_e + len_e;
    always @(posedge clk) begin
        if (adv) begin
            m_bits  <= piece;
            m_end   <= end_b;
            m_endm1 <= end_b - 1'b1;
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
    wire unused = ^{b_info, unused_nz, plen_r[RW-1:LENW], hi_b[FULL-1:MAXLEN], nj[7:3]};

endmodule

`resetall
