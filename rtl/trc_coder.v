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
    parameter LENW   = 6
) (
    input  wire              clk,
    input  wire              rst,
    // ---- raw records in: {os, delta[NT-1:0], info[INFO_W-1:0]}
    input  wire [NT+INFO_W:0] s_rec,
    input  wire              s_valid,
    output wire              s_ready,
    // ---- coded records out
    output reg  [MAXLEN-1:0] m_bits,   // right-aligned, bits above len are 0
    output reg  [LENW-1:0]   m_len,
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

    wire fire = s_valid && s_ready;
    assign s_ready = !m_valid || m_ready;

    wire is_end  = os && otype == T_END;
    wire is_sync = os && otype == T_SYNC;

    // ---- timestamp
    wire [TSW-1:0]  ts_code;
    wire [LENW-1:0] ts_len;
    trc_tscode #(.NT(NT), .NZ(NZ), .CW(TSW), .LW(LENW)) u_ts (
        .delta(delta), .code(ts_code), .len(ts_len)
    );

    // ---- dictionaries
    wire            f_hit, t_hit, v_hit;
    wire [ND_F-1:0] f_code;
    wire [ND_T-1:0] t_code;
    wire [ND_V-1:0] v_code;

    trc_dict #(.ND(ND_F), .W(FW), .FLIP(1)) u_fdict (
        .clk(clk), .rst(rst), .clr(fire && is_sync), .key(fkey),
        .upd(fire && !os), .hit(f_hit), .code(f_code)
    );
    trc_dict #(.ND(ND_T), .W(TYPE_W), .FLIP(0)) u_tdict (
        .clk(clk), .rst(rst), .clr(fire && is_sync), .key(otype),
        .upd(fire && os), .hit(t_hit), .code(t_code)
    );
    trc_dict #(.ND(ND_V), .W(VAL_W), .FLIP(0)) u_vdict (
        .clk(clk), .rst(rst), .clr(fire && is_sync), .key(oval),
        .upd(fire && os), .hit(v_hit), .code(v_code)
    );

    // ---- kind + payload, right-aligned (the kind bit is the top one)
    reg [MAXLEN-1:0] pl;
    reg [LENW-1:0]   pl_len;
    always @* begin
        pl     = {MAXLEN{1'b0}};
        pl_len = {LENW{1'b0}};
        if (!os) begin
            if (f_hit) begin
                pl[ND_F-1:0] = f_code;
                pl_len       = LF_HIT;
            end else begin
                pl[ND_F+FW-1:0] = {f_code, fkey};
                pl_len          = LF_MISS;
            end
        end else begin
            case ({t_hit, v_hit})
                2'b11: begin
                    pl[ND_T+ND_V:0] = {1'b1, t_code, v_code};
                    pl_len          = LO_HH;
                end
                2'b10: begin
                    pl[ND_T+ND_V+VAL_W:0] = {1'b1, t_code, v_code, oval};
                    pl_len                = LO_HM;
                end
                2'b01: begin
                    pl[ND_T+TYPE_W+ND_V:0] = {1'b1, t_code, otype, v_code};
                    pl_len                 = LO_MH;
                end
                default: begin
                    pl[ND_T+TYPE_W+ND_V+VAL_W:0] = {1'b1, t_code, otype, v_code, oval};
                    pl_len                       = LO_MM;
                end
            endcase
        end
    end

    wire [MAXLEN-1:0] ts_ext = {{(MAXLEN-TSW){1'b0}}, ts_code};

    // ---- output register (datapath not reset, valid is)
    reg [MAXLEN-1:0] bits_d;
    reg [LENW-1:0]   len_d;
    reg              flush_d, valid_d;
    always @* begin
        bits_d  = m_bits;
        len_d   = m_len;
        flush_d = m_flush;
        valid_d = m_valid;
        if (s_ready) begin
            valid_d = s_valid;
            bits_d  = (ts_ext << pl_len) | pl;
            len_d   = ts_len + pl_len;
            flush_d = is_end || is_sync;
        end
    end

    always @(posedge clk) begin
        m_bits  <= bits_d;
        m_len   <= len_d;
        m_flush <= flush_d;
        m_valid <= rst ? 1'b0 : valid_d;
    end

    // Info bits a record kind does not use are ignored (docs/rtl.md).
    wire unused_info = ^info;

endmodule

`resetall
