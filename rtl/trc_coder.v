// trc_coder: codes one raw record per clock into its bit string (timestamp,
// kind, function or type+value through the dictionaries) and registers it,
// right-aligned, with the position where it ends in the stream. END and SYNC
// are marked for the packer to flush; SYNC resets the dictionaries once it
// is coded.
// Several CPUs (NB > 1, docs/format.md 4.9): each record comes with its CPU
// in the top bits of s_rec; each CPU has a bank of the three dictionaries,
// and a record of another CPU than the last one's gets the CPU switch code
// in front of its timestamp code (the timestamp coder places it). After a
// SYNC, CPU 0 is current. MAXLEN must include the switch code then.
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W - field widths of the format
//   ND_F, ND_T, ND_V         - dictionary address bits
//   INFO_W                   - info field width, max(1+FID_W, TYPE_W+VAL_W)
//   MAXLEN                   - longest coded record in bits (see trc_enc)
//   LENW                     - width of the length fields
//   LANE_W                   - packer lane width (trc_packer)
//   EW                       - end-position bits: 2^EW > LANE_W - 1 + MAXLEN
//   NB                       - CPUs, 1..8 (default 1: a single-CPU stream)
//   CPW                      - CPU bits on s_rec, derived: 0 for one CPU,
//                              else log2(NB) rounded up
`default_nettype none
`include "trc_format.vh"

module trc_coder #(
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
    parameter EW     = 7,
    parameter NB     = 1,
    parameter CPW    = NB > 1 ? $clog2(NB) : 0
) (
    input  wire              clk,
    input  wire              rst,
    // ---- raw records in: {cpu (NB > 1), os, delta[NT-1:0], info[INFO_W-1:0]}
    input  wire [CPW+NT+INFO_W:0] s_rec,
    input  wire              s_valid,
    output wire              s_ready,
    // ---- coded records out
    output wire [MAXLEN-1:0] m_bits,   // right-aligned, bits above len are 0
    // where the record ends in the stream: its first bit is at bit phase
    // ph = (bits since the last flush) mod LANE_W of a lane; m_endm1 = ph + len - 1
    // (every record has bits)
    output wire [EW-1:0]     m_endm1,
    output wire              m_flush,  // END or SYNC: pad and end the word
    output wire              m_valid,
    input  wire              m_ready
);

    localparam NZ  = $clog2(NT + 1);
    localparam TSW = NZ + NT - 1;
    // CPU switch code (NB > 1): the number (NT+1) * 2^E + cpu in SWL = NZ + E
    // bits (trc_format.vh)
    localparam E   = NB > 1 ? `TRC_SW_EXT(NZ, NT, NB) : 0;
    localparam SWL = NB > 1 ? NZ + E : 0;
    localparam TSC = TSW + SWL;               // timestamp code with the switch
    localparam BW  = CPW > 0 ? CPW : 1;
    localparam PW  = SWL > 0 ? SWL : 1;
    localparam integer SW0_I = (NT + 1) * (1 << E);
    localparam [PW-1:0] SW0 = SW0_I[PW-1:0];
    localparam FW  = 1 + FID_W;
    localparam [TYPE_W-1:0] T_END  = `TRC_T_END(TYPE_W);
    localparam [TYPE_W-1:0] T_SYNC = `TRC_T_SYNC(TYPE_W);

    // Payload cases (kind bit included): function hit / miss, OS type and
    // value hit (h) or miss (m). Lengths minus one, sized for the end field.
    localparam NK = 6;
    localparam K_FH = 0, K_FM = 1, K_HH = 2, K_HM = 3, K_MH = 4, K_MM = 5;
    localparam integer L_FH = 1 + ND_F;
    localparam integer L_FM = 1 + ND_F + FW;
    localparam integer L_HH = 1 + ND_T + ND_V;
    localparam integer L_HM = 1 + ND_T + ND_V + VAL_W;
    localparam integer L_MH = 1 + ND_T + TYPE_W + ND_V;
    localparam integer L_MM = 1 + ND_T + TYPE_W + ND_V + VAL_W;

    // Every stage moves when the packer takes the output register (adv, a
    // flop there): no logic on the enable of these registers.
    wire adv = m_ready;
    assign s_ready = adv;

    // ---- stage C: the entering record's fields and kind
    wire              os    = s_rec[NT+INFO_W];
    wire [NT-1:0]     delta = s_rec[INFO_W +: NT];
    wire [INFO_W-1:0] info  = s_rec[INFO_W-1:0];
    wire [TYPE_W-1:0] otype = info[VAL_W +: TYPE_W];
    wire              is_end  = os && otype == T_END;
    wire              is_sync = os && otype == T_SYNC;

    // ---- the CPU: its dictionary bank, and the switch code when it is not
    // the current one (a bubble is bank 0 and switches nothing)
    wire [BW-1:0] cpu;
    wire          sw;
    wire [PW-1:0] sw_code;
    generate
        if (NB > 1) begin : g_cpus
            reg  [BW-1:0] cur_q;
            wire [BW-1:0] cin = s_rec[CPW+NT+INFO_W:NT+INFO_W+1];
            assign cpu     = cin & {BW{s_valid}};
            assign sw      = s_valid && cin != cur_q;
            assign sw_code = SW0 + {{(PW-BW){1'b0}}, cin};
            always @(posedge clk) begin
                if (rst)
                    cur_q <= {BW{1'b0}};
                else if (adv && s_valid)
                    cur_q <= is_sync ? {BW{1'b0}} : cin;
            end
        end else begin : g_one
            assign cpu     = 1'b0;
            assign sw      = 1'b0;
            assign sw_code = 1'b0;
        end
    endgenerate

    // Dictionaries (keys compared in stage C, looked up in stage K) and the
    // timestamp code (ready in stage K).
    wire            f_hit, t_hit, v_hit;
    wire [ND_F-1:0] f_code;
    wire [ND_T-1:0] t_code;
    wire [ND_V-1:0] v_code;
    wire            clr = s_valid && is_sync;
    trc_dictm #(.ND(ND_F), .W(FW), .FLIP(1), .NB(NB), .BW(BW)) u_fdict (
        .clk(clk), .rst(rst), .adv(adv), .key_in(info[FW-1:0]), .bank_in(cpu),
        .upd_in(s_valid && !os), .clr_in(clr), .hit(f_hit), .code(f_code)
    );
    trc_dictm #(.ND(ND_T), .W(TYPE_W), .FLIP(0), .NB(NB), .BW(BW)) u_tdict (
        .clk(clk), .rst(rst), .adv(adv), .key_in(otype), .bank_in(cpu),
        .upd_in(s_valid && os), .clr_in(clr), .hit(t_hit), .code(t_code)
    );
    trc_dictm #(.ND(ND_V), .W(VAL_W), .FLIP(0), .NB(NB), .BW(BW)) u_vdict (
        .clk(clk), .rst(rst), .adv(adv), .key_in(info[VAL_W-1:0]), .bank_in(cpu),
        .upd_in(s_valid && os), .clr_in(clr), .hit(v_hit), .code(v_code)
    );
    wire [TSC-1:0]  ts_code;
    wire [LENW-1:0] ts_len;
    wire [NT-1:0]   unused_ts_mant;
    trc_tscode #(.NT(NT), .NZ(NZ), .PW(PW), .CW(TSC), .LW(LENW)) u_ts (
        .clk(clk), .adv(adv), .delta(delta), .pfx_en(sw), .pfx(sw_code),
        .code(ts_code), .len(ts_len), .mant(unused_ts_mant)
    );

    // ---- the record's fields through stages L, A, K and S (datapath not
    // reset, valid is)
    reg              vl_q, va_q, vk_q, vs_q, vp_q;
    reg              osl_q, osa_q, osk_q;
    reg              fll_q, fla_q, flk_q, fls_q, flp_q;
    reg [INFO_W-1:0] infol_q, infoa_q, infok_q, infos_q;
    reg [TSC-1:0]    tss_q;
    reg [LENW-1:0]   tls_q;
    // stage S: the payload case, one-hot (for the bits) and as {os, a, b}
    // (for the lengths: one LUT per bit), and the dictionary codes
    reg [NK-1:0]     ks_q;
    reg [2:0]        kc_q;
    reg [ND_F-1:0]   fcs_q;
    reg [ND_T-1:0]   tcs_q;
    reg [ND_V-1:0]   vcs_q;
    // stage P: the bit string, its length and length - 1
    reg [MAXLEN-1:0] bitsp_q;
    reg [EW-1:0]     lm1p_q, lenp_q;

    wire [NK-1:0] kind_k;
    assign kind_k[K_FH] = !osk_q && f_hit;
    assign kind_k[K_FM] = !osk_q && !f_hit;
    assign kind_k[K_HH] = osk_q && t_hit && v_hit;
    assign kind_k[K_HM] = osk_q && t_hit && !v_hit;
    assign kind_k[K_MH] = osk_q && !t_hit && v_hit;
    assign kind_k[K_MM] = osk_q && !t_hit && !v_hit;

    // ---- stage S: kind, payload and the timestamp code above it, for each
    // case; the case selects (an AND-OR: one case is set).
    wire [FW-1:0]     fkey_s = infos_q[FW-1:0];
    wire [TYPE_W-1:0] otyp_s = infos_q[VAL_W +: TYPE_W];
    wire [VAL_W-1:0]  oval_s = infos_q[VAL_W-1:0];
    wire [MAXLEN-1:0] ts_s   = {{(MAXLEN-TSC){1'b0}}, tss_q};
    wire [NK*MAXLEN-1:0] rec_k;   // case k's record at [k*MAXLEN +: MAXLEN]
    assign rec_k[K_FH*MAXLEN +: MAXLEN] = ts_s << L_FH |
                         {{(MAXLEN-L_FH){1'b0}}, 1'b0, fcs_q};
    assign rec_k[K_FM*MAXLEN +: MAXLEN] = ts_s << L_FM |
                         {{(MAXLEN-L_FM){1'b0}}, 1'b0, fcs_q, fkey_s};
    assign rec_k[K_HH*MAXLEN +: MAXLEN] = ts_s << L_HH |
                         {{(MAXLEN-L_HH){1'b0}}, 1'b1, tcs_q, vcs_q};
    assign rec_k[K_HM*MAXLEN +: MAXLEN] = ts_s << L_HM |
                         {{(MAXLEN-L_HM){1'b0}}, 1'b1, tcs_q, vcs_q, oval_s};
    assign rec_k[K_MH*MAXLEN +: MAXLEN] = ts_s << L_MH |
                         {{(MAXLEN-L_MH){1'b0}}, 1'b1, tcs_q, otyp_s, vcs_q};
    assign rec_k[K_MM*MAXLEN +: MAXLEN] = ts_s << L_MM |
                         {{(MAXLEN-L_MM){1'b0}}, 1'b1, tcs_q, otyp_s, vcs_q, oval_s};
    reg [MAXLEN-1:0] bits_s;
    integer k;
    always @* begin
        bits_s = {MAXLEN{1'b0}};
        for (k = 0; k < NK; k = k + 1)
            bits_s = bits_s | ({MAXLEN{ks_q[k]}} & rec_k[k*MAXLEN +: MAXLEN]);
    end
    // payload length (m1 = 0) or length - 1 (m1 = 1) of the case {os, a, b}
    // (a: the function or type hit, b: the value hit): two tables of
    // constants side by side, so the record's length and length - 1 are two
    // adders, not a chain (written as l - 1, Yosys shares the adders)
    function [EW-1:0] pick(input [2:0] kc, input m1);
        integer l;
        begin
            case (kc)
                3'b010, 3'b011: l = L_FH;
                3'b000, 3'b001: l = L_FM;
                3'b111:         l = L_HH;
                3'b110:         l = L_HM;
                3'b101:         l = L_MH;
                default:        l = L_MM;
            endcase
            if (m1)
                l = l - 1;
            pick = l[EW-1:0];
        end
    endfunction
    localparam [8*EW-1:0] T_LEN = {pick(3'd7, 1'b0), pick(3'd6, 1'b0), pick(3'd5, 1'b0),
                                   pick(3'd4, 1'b0), pick(3'd3, 1'b0), pick(3'd2, 1'b0),
                                   pick(3'd1, 1'b0), pick(3'd0, 1'b0)};
    localparam [8*EW-1:0] T_LM1 = {pick(3'd7, 1'b1), pick(3'd6, 1'b1), pick(3'd5, 1'b1),
                                   pick(3'd4, 1'b1), pick(3'd3, 1'b1), pick(3'd2, 1'b1),
                                   pick(3'd1, 1'b1), pick(3'd0, 1'b1)};
    wire [EW-1:0] tl_s  = {{(EW-LENW){1'b0}}, tls_q};
    wire [EW-1:0] lm1_s = tl_s + T_LM1[kc_q*EW +: EW];
    wire [EW-1:0] len_s = tl_s + T_LEN[kc_q*EW +: EW];

    // ---- stage P: where the record ends, in the output stage (trc_piece,
    // shared with the stack mode coders; a paper mode record is never
    // longer than MAXLEN, so it is never split). The phase is the one loop
    // there: a flush pads to the end of the word, so the next record
    // starts one.
    trc_piece #(.FULL(MAXLEN), .MAXLEN(MAXLEN), .LANE_W(LANE_W), .EW(EW)) u_piece (
        .clk(clk), .rst(rst), .adv(adv),
        .bits(bitsp_q), .len(lenp_q), .lm1(lm1p_q), .hi_len({EW{1'b0}}),
        .hi_lm1({EW{1'b0}}), .long_rec(1'b0), .flush(flp_q), .valid(vp_q),
        .hold(unused_hold), .m_ready(1'b0), .m_ready_n(1'b0), .adv_o(unused_advo),
        .m_bits(m_bits), .m_endm1(m_endm1), .m_flush(m_flush), .m_valid(m_valid)
    );
    wire unused_hold, unused_advo;

    always @(posedge clk) begin
        if (adv) begin
            osl_q   <= os;
            fll_q   <= is_end || is_sync;
            infol_q <= info;
            osa_q   <= osl_q;
            fla_q   <= fll_q;
            infoa_q <= infol_q;
            osk_q   <= osa_q;
            flk_q   <= fla_q;
            infok_q <= infoa_q;
            fls_q   <= flk_q;
            infos_q <= infok_q;
            tss_q   <= ts_code;
            tls_q   <= ts_len;
            ks_q    <= kind_k;
            kc_q    <= {osk_q, osk_q ? t_hit : f_hit, osk_q && v_hit};
            fcs_q   <= f_code;
            tcs_q   <= t_code;
            vcs_q   <= v_code;
            flp_q   <= fls_q;
            bitsp_q <= bits_s;
            lm1p_q  <= lm1_s;
            lenp_q  <= len_s;
        end
        if (rst) begin
            {vl_q, va_q, vk_q, vs_q, vp_q} <= 5'd0;
        end else if (adv) begin
            vl_q    <= s_valid;
            va_q    <= vl_q;
            vk_q    <= va_q;
            vs_q    <= vk_q;
            vp_q    <= vs_q;
        end
    end

`ifdef TRC_ASSERT
    // one payload case per record
    always @(posedge clk) begin
        if (!rst && vs_q)
            assert ((ks_q & (ks_q - 1'b1)) == {NK{1'b0}} && ks_q != {NK{1'b0}})
                else $error("%m: payload case not one-hot");
    end
`endif

endmodule

`resetall
