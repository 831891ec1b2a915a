// trc_coder: codes one raw record per clock into its bit string (timestamp,
// kind, function or type+value through the dictionaries) and registers it,
// right-aligned with its length. END and SYNC are marked for the packer to
// flush; SYNC resets the dictionaries once it is coded.
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W - field widths of the format
//   ND_F, ND_T, ND_V         - dictionary address bits
//   INFO_W                   - info field width, max(1+FID_W, TYPE_W+VAL_W)
//   MAXLEN                   - longest coded record in bits (see trc_enc)
//   LENW                     - width of the length output
`default_nettype none

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
    parameter LANE_W = 64,  // packer lane width (trc_packer)
    parameter EW     = 7    // end-position bits: 2^EW > LANE_W - 1 + MAXLEN
) (
    input  wire              clk,
    input  wire              rst,
    // ---- raw records in: {os, delta[NT-1:0], info[INFO_W-1:0]}
    input  wire [NT+INFO_W:0] s_rec,
    input  wire              s_valid,
    output wire              s_ready,
    // ---- coded records out
    output reg  [MAXLEN-1:0] m_bits,   // right-aligned, bits above len are 0
    // where the record ends in the stream: its first bit is at bit phase
    // ph = (bits since the last flush) mod LANE_W of a lane; m_endm1 = ph + len - 1
    // (every record has bits)
    output reg  [EW-1:0]     m_endm1,
    output reg               m_flush,  // END or SYNC: pad and end the word
    output reg               m_valid,
    input  wire              m_ready
);

    localparam NZ  = $clog2(NT + 1);
    localparam TSW = NZ + NT - 1;
    localparam FW  = 1 + FID_W;
    // Payload lengths (kind bit included), sized for the length fields.
    localparam integer LF_HIT_I  = 1 + ND_F;
    localparam integer LF_MISS_I = 1 + ND_F + FW;
    localparam integer LO_HH_I   = 1 + ND_T + ND_V;
    localparam integer LO_HM_I   = 1 + ND_T + ND_V + VAL_W;
    localparam integer LO_MH_I   = 1 + ND_T + TYPE_W + ND_V;
    localparam integer LO_MM_I   = 1 + ND_T + TYPE_W + ND_V + VAL_W;
    localparam [LENW-1:0] LF_HIT  = LF_HIT_I[LENW-1:0];
    localparam [LENW-1:0] LF_MISS = LF_MISS_I[LENW-1:0];
    localparam [LENW-1:0] LO_HH   = LO_HH_I[LENW-1:0];
    localparam [LENW-1:0] LO_HM   = LO_HM_I[LENW-1:0];
    localparam [LENW-1:0] LO_MH   = LO_MH_I[LENW-1:0];
    localparam [LENW-1:0] LO_MM   = LO_MM_I[LENW-1:0];
    localparam [TYPE_W-1:0] T_END  = {TYPE_W{1'b1}} - 1'b1;
    localparam [TYPE_W-1:0] T_SYNC = {TYPE_W{1'b1}} - {{(TYPE_W-2){1'b0}}, 2'd2};

    // ---- fields
    wire              os    = s_rec[NT+INFO_W];
    wire [NT-1:0]     delta = s_rec[INFO_W +: NT];
    wire [INFO_W-1:0] info  = s_rec[INFO_W-1:0];
    wire [FW-1:0]     fkey  = info[FW-1:0];           // {exit flag, id}
    wire [TYPE_W-1:0] otype = info[VAL_W +: TYPE_W];
    wire [VAL_W-1:0]  oval  = info[VAL_W-1:0];

    // Three stages: (L) timestamp code and the keys compared with the
    // dictionary entries (trc_dictp corrects for the update of the record
    // ahead); (1) lookup and update, registered as hit flags and codes;
    // (2) payload and the coded record.
    // All move together when the last one is empty or taken.
    reg              v1_q;
    wire             s2_ready = !m_valid || m_ready;
    assign s_ready = s2_ready;

    wire is_end  = os && otype == T_END;
    wire is_sync = os && otype == T_SYNC;

    // ---- stage L: the record and its dictionary compares, registered
    wire [TSW-1:0]  ts_code;
    wire [LENW-1:0] ts_len;
    trc_tscode #(.NT(NT), .NZ(NZ), .CW(TSW), .LW(LENW)) u_ts (
        .delta(delta), .code(ts_code), .len(ts_len)
    );
    reg              vl_q, osl_q, syncl_q, flushl_q;
    reg [INFO_W-1:0] infol_q;
    reg [TSW-1:0]    ts_codel_q;
    reg [LENW-1:0]   ts_lenl_q;
    always @(posedge clk) begin
        if (s_ready) begin
            osl_q      <= os;
            syncl_q    <= is_sync;
            flushl_q   <= is_end || is_sync;
            infol_q    <= info;
            ts_codel_q <= ts_code;
            ts_lenl_q  <= ts_len;
        end
        if (rst)
            vl_q <= 1'b0;
        else if (s_ready)
            vl_q <= s_valid;
    end
    wire l_sync = vl_q && syncl_q;

    // ---- dictionaries: the stage L record's lookup and update
    wire            f_hit, t_hit, v_hit;
    wire [ND_F-1:0] f_code;
    wire [ND_T-1:0] t_code;
    wire [ND_V-1:0] v_code;
    trc_dictp #(.ND(ND_F), .W(FW), .FLIP(1)) u_fdict (
        .clk(clk), .rst(rst), .adv(s_ready), .key_in(fkey), .clr(l_sync),
        .upd(vl_q && !osl_q), .hit(f_hit), .code(f_code)
    );
    trc_dictp #(.ND(ND_T), .W(TYPE_W), .FLIP(0)) u_tdict (
        .clk(clk), .rst(rst), .adv(s_ready), .key_in(otype), .clr(l_sync),
        .upd(vl_q && osl_q), .hit(t_hit), .code(t_code)
    );
    trc_dictp #(.ND(ND_V), .W(VAL_W), .FLIP(0)) u_vdict (
        .clk(clk), .rst(rst), .adv(s_ready), .key_in(oval), .clr(l_sync),
        .upd(vl_q && osl_q), .hit(v_hit), .code(v_code)
    );

    // ---- stage 1 registers (datapath not reset, valid is)
    reg                os1_q, f_hit1_q, t_hit1_q, v_hit1_q, flush1_q;
    reg [ND_F-1:0]     f_code1_q;
    reg [ND_T-1:0]     t_code1_q;
    reg [ND_V-1:0]     v_code1_q;
    reg [INFO_W-1:0]   info1_q;
    reg [TSW-1:0]      ts_code1_q;
    reg [LENW-1:0]     ts_len1_q;
    always @(posedge clk) begin
        if (s_ready) begin
            os1_q      <= osl_q;
            f_hit1_q   <= f_hit;
            t_hit1_q   <= t_hit;
            v_hit1_q   <= v_hit;
            flush1_q   <= flushl_q;
            f_code1_q  <= f_code;
            t_code1_q  <= t_code;
            v_code1_q  <= v_code;
            info1_q    <= infol_q;
            ts_code1_q <= ts_codel_q;
            ts_len1_q  <= ts_lenl_q;
        end
        if (rst)
            v1_q <= 1'b0;
        else if (s_ready)
            v1_q <= vl_q;
    end
    wire [FW-1:0]     fkey1  = info1_q[FW-1:0];
    wire [TYPE_W-1:0] otype1 = info1_q[VAL_W +: TYPE_W];
    wire [VAL_W-1:0]  oval1  = info1_q[VAL_W-1:0];

    // ---- kind + payload, right-aligned (the kind bit is the top one)
    reg [MAXLEN-1:0] pl;
    reg [LENW-1:0]   pl_len, pl_lm1;  // pl_lm1 = pl_len - 1 (a constant each)
    always @* begin
        pl     = {MAXLEN{1'b0}};
        pl_len = {LENW{1'b0}};
        pl_lm1 = {LENW{1'b0}};
        if (!os1_q) begin
            if (f_hit1_q) begin
                pl[ND_F-1:0] = f_code1_q;
                pl_len       = LF_HIT;
                pl_lm1       = LF_HIT - 1'b1;
            end else begin
                pl[ND_F+FW-1:0] = {f_code1_q, fkey1};
                pl_len          = LF_MISS;
                pl_lm1          = LF_MISS - 1'b1;
            end
        end else begin
            case ({t_hit1_q, v_hit1_q})
                2'b11: begin
                    pl[ND_T+ND_V:0] = {1'b1, t_code1_q, v_code1_q};
                    pl_len          = LO_HH;
                    pl_lm1          = LO_HH - 1'b1;
                end
                2'b10: begin
                    pl[ND_T+ND_V+VAL_W:0] = {1'b1, t_code1_q, v_code1_q, oval1};
                    pl_len                = LO_HM;
                    pl_lm1                = LO_HM - 1'b1;
                end
                2'b01: begin
                    pl[ND_T+TYPE_W+ND_V:0] = {1'b1, t_code1_q, otype1, v_code1_q};
                    pl_len                 = LO_MH;
                    pl_lm1                 = LO_MH - 1'b1;
                end
                default: begin
                    pl[ND_T+TYPE_W+ND_V+VAL_W:0] = {1'b1, t_code1_q, otype1, v_code1_q, oval1};
                    pl_len                       = LO_MM;
                    pl_lm1                       = LO_MM - 1'b1;
                end
            endcase
        end
    end

    wire [MAXLEN-1:0] ts_ext = {{(MAXLEN-TSW){1'b0}}, ts_code1_q};

    // ---- output register (datapath not reset, valid is)
    reg [MAXLEN-1:0] bits_d;
    localparam OWL = $clog2(LANE_W);
    reg  [OWL-1:0]   ph_q, ph_d;
    wire [EW-1:0]    ph_e   = {{(EW-OWL){1'b0}}, ph_q};
    wire [EW-1:0]    tsl_e  = {{(EW-LENW){1'b0}}, ts_len1_q};
    wire [EW-1:0]    pll_e  = {{(EW-LENW){1'b0}}, pl_len};
    wire [EW-1:0]    plm_e  = {{(EW-LENW){1'b0}}, pl_lm1};
    wire [EW-1:0]    end_n  = ph_e + tsl_e + pll_e;
    reg  [EW-1:0]    endm1_d;
    reg              flush_d, valid_d;
    always @* begin
        bits_d  = m_bits;
        endm1_d = m_endm1;
        ph_d    = ph_q;
        flush_d = m_flush;
        valid_d = m_valid;
        if (s2_ready) begin
            valid_d = v1_q;
            bits_d  = (ts_ext << pl_len) | pl;
            endm1_d = ph_e + tsl_e + plm_e;
            flush_d = flush1_q;
            // a flush pads to the end of the word: the next record starts one
            if (v1_q)
                ph_d = flush1_q ? {OWL{1'b0}} : end_n[OWL-1:0];
        end
    end

    always @(posedge clk) begin
        m_bits  <= bits_d;
        m_endm1 <= endm1_d;
        ph_q    <= rst ? {OWL{1'b0}} : ph_d;
        m_flush <= flush_d;
        m_valid <= rst ? 1'b0 : valid_d;
    end

    // Info bits a record kind does not use are ignored (docs/rtl.md).
    wire unused_info = ^{info, info1_q, end_n[EW-1:OWL]};

endmodule

`resetall
