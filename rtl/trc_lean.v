// trc_lean: the lean paper mode encoder (trc_enc with LEAN = 1): the same
// stream as trc_coder + trc_packer, in a fraction of their area, a record
// over several clocks. A function record is looked up in the function
// dictionary (trc_lean_dict) and its timestamp code prepared in the clock
// it is taken; an OS record's type and value are looked up one entry a
// clock (trc_lean_ring) while its timestamp goes out. A record goes out a
// chunk of at most 8 bits a clock, field by field (timestamp, kind and
// code, raw key, value code, raw value), into trc_lean_out, which packs the
// chunks into bytes and words. s_ready is a flop: it is set for the clock
// in which the record held goes out with its last chunk, so records follow
// each other without a gap. docs/rtl.md, "The lean encoder".
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W - field widths of the format
//   ND_F, ND_T, ND_V         - dictionary address bits
//   INFO_W                   - info field width, max(1+FID_W, TYPE_W+VAL_W)
//   OUT_W                    - output word width: 8, 16, 32 or 64
`default_nettype none
`include "trc_format.vh"

module trc_lean #(
    parameter NT     = 23,
    parameter FID_W  = 15,
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter ND_F   = 3,
    parameter ND_T   = 3,
    parameter ND_V   = 3,
    parameter INFO_W = 23,
    parameter OUT_W  = 8
) (
    input  wire                clk,
    input  wire                rst,
    // ---- raw records in: {os, delta[NT-1:0], info[INFO_W-1:0]}
    input  wire [NT+INFO_W:0]  s_rec,
    input  wire                s_valid,
    output reg                 s_ready,
    // ---- compressed stream out
    output wire [OUT_W-1:0]    m_axis_tdata,
    output wire [OUT_W/8-1:0]  m_axis_tkeep,
    output wire                m_axis_tlast,
    output wire                m_axis_tvalid,
    input  wire                m_axis_tready
);

    localparam NZ  = $clog2(NT + 1);
    localparam FW  = 1 + FID_W;
    localparam NDK = ND_F > ND_T ? ND_F : ND_T;
    localparam NB  = (NT + 7) / 8;            // delta bytes
    localparam MW  = NB > 1 ? 8 * (NB - 1) : 8; // the bytes a mantissa fills whole
    localparam [TYPE_W-1:0] T_END  = `TRC_T_END(TYPE_W);
    localparam [TYPE_W-1:0] T_SYNC = `TRC_T_SYNC(TYPE_W);

    // Fields after the timestamp, each a right-aligned value of width w sent
    // as ceil(w/8) chunks, the first one w - 8*(ceil(w/8)-1) bits: chunk
    // counts (minus one) and first chunk lengths.
    function integer ncm1(input integer w);
        ncm1 = (w + 7) / 8 - 1;
    endfunction
    function integer flen(input integer w);
        flen = w - 8 * ncm1(w);
    endfunction
    // chunk k of a right-aligned value v of width w, left-aligned
    function [7:0] chunk(input [63:0] v, input integer w, input integer k);
        reg [63:0] t;
        begin
            t = v >> (8 * k);
            if (k == ncm1(w))
                t = t << (8 - flen(w));
            chunk = t[7:0];
        end
    endfunction

    // ---- the record taken this clock
    wire              os    = s_rec[NT+INFO_W];
    wire [NT-1:0]     delta = s_rec[INFO_W +: NT];
    wire [INFO_W-1:0] info  = s_rec[INFO_W-1:0];
    wire [TYPE_W-1:0] otype = info[VAL_W +: TYPE_W];
    wire              take  = s_valid && s_ready;
    wire              sync  = os && otype == T_SYNC;
    wire [MW-1:0]     mant;       // the bytes below the delta's top one
    generate
        if (NB > 1) begin : g_mant
            assign mant = delta[MW-1:0];
        end else begin : g_mant1
            assign mant = {{(MW-NT){1'b0}}, delta};
        end
    endgenerate

    // ---- the record held (datapath not reset; iv_q is)
    reg              iv_q, iv_d;
    reg              os_q, fl_q, sy_q, fh_q, lb_q;
    reg [ND_F-1:0]   fc_q;       // function code and hit
    reg [INFO_W-1:0] info_q;
    reg [MW-1:0]     mant_q;     // the delta's bytes below the top one
    reg [7:0]        head_q, lbb_q;
    reg [3:0]        hn_q;
    reg [2:0]        q_q;
    reg [1:0]        nb_q;

    // The function dictionary is looked up in the clock the record is
    // taken and updated in the next (a record takes two clocks at least);
    // the type and value dictionaries, which code few records (OS
    // records), one entry a clock from the next clock on, and the record's
    // kind and code chunk waits for them.
    wire            f_hit, t_hit, v_hit, t_busy, v_busy, t_busy_n, v_busy_n;
    wire [ND_F-1:0] f_code;
    wire [ND_T-1:0] t_code;
    wire [ND_V-1:0] v_code;
    wire            os_clr;     // after a SYNC: set below
    reg             fu_q;       // the function dictionary's update is due
    trc_lean_dict #(.ND(ND_F), .W(FW)) u_fdict (
        .clk(clk), .rst(rst), .key(info[FW-1:0]), .hit(f_hit), .code(f_code),
        .upd(fu_q), .upd_key(info_q[FW-1:0]), .upd_hit(fh_q), .upd_code(fc_q),
        .clr(take && sync)
    );
    trc_lean_ring #(.ND(ND_T), .W(TYPE_W)) u_tdict (
        .clk(clk), .rst(rst), .look(take && os), .key(info_q[VAL_W +: TYPE_W]),
        .clr(os_clr), .busy(t_busy), .busy_next(t_busy_n), .hit(t_hit), .code(t_code)
    );
    trc_lean_ring #(.ND(ND_V), .W(VAL_W)) u_vdict (
        .clk(clk), .rst(rst), .look(take && os), .key(info_q[VAL_W-1:0]),
        .clr(os_clr), .busy(v_busy), .busy_next(v_busy_n), .hit(v_hit), .code(v_code)
    );

    wire [7:0] ts_head, ts_lb_bits;
    wire [3:0] ts_head_n;
    wire [2:0] ts_q;
    wire [1:0] ts_nb;
    wire       ts_lb;
    trc_lean_ts #(.NT(NT), .NZ(NZ)) u_ts (
        .delta(delta), .head(ts_head), .head_n(ts_head_n), .lb(ts_lb),
        .lb_bits(ts_lb_bits), .q(ts_q), .nb(ts_nb)
    );

    // ---- the chunk sequence: steps, and a byte index inside multi-chunk
    // fields (counting down to 0)
    localparam [2:0] S_HEAD = 3'd0,   // z (and the first mantissa bits)
                     S_LB   = 3'd1,   // mantissa bits of the leading byte
                     S_MANT = 3'd2,   // mantissa bytes
                     S_KIND = 3'd3,   // kind bit + function or type code
                     S_RAWA = 3'd4,   // raw function key or type (a miss)
                     S_VC   = 3'd5,   // value code
                     S_RAWV = 3'd6;   // raw value (a miss)
    reg [2:0] st_q, st_d;
    reg [1:0] ix_q, ix_d;
    reg       lst_q, lst_d;   // this step is the record's last
    wire      go;             // trc_lean_out takes a chunk this clock
    wire      go_next;        // ... and in the next clock
    // an OS record's code chunks wait for the type and value lookups
    wire      os_wait = os_q && st_q >= S_KIND && (t_busy || v_busy);
    wire      fire = iv_q && go && !os_wait;
    wire      ha_q = os_q ? t_hit : fh_q;    // the function or type hit
    assign    os_clr = fire && lst_q && sy_q;

    // the record's flags for the next clock (a new record, or the same; a
    // new record's are not needed: it starts with its timestamp)
    wire      n_os = take ? os : os_q;

    // chunk counts - 1 of the fields, for a kind (os)
    localparam integer KC_F_I = ncm1(1 + ND_F), KC_T_I = ncm1(1 + ND_T);
    localparam integer RC_F_I = ncm1(FW), RC_T_I = ncm1(TYPE_W), RC_V_I = ncm1(VAL_W);
    localparam [1:0] KC_F = KC_F_I[1:0], KC_T = KC_T_I[1:0];
    localparam [1:0] RC_F = RC_F_I[1:0], RC_T = RC_T_I[1:0], RC_V = RC_V_I[1:0];
    // first chunk lengths
    localparam integer FL_KF_I = flen(1 + ND_F), FL_KT_I = flen(1 + ND_T);
    localparam integer FL_F_I = flen(FW), FL_T_I = flen(TYPE_W), FL_V_I = flen(VAL_W);
    localparam integer FL_C_I = flen(ND_V);
    localparam [3:0] FL_KF = FL_KF_I[3:0], FL_KT = FL_KT_I[3:0], FL_F = FL_F_I[3:0];
    localparam [3:0] FL_T = FL_T_I[3:0], FL_V = FL_V_I[3:0], FL_C = FL_C_I[3:0];
    function last_step(input [2:0] st, input [1:0] ix, input o, input ha, input hv);
        case (st)
            S_KIND:  last_step = ix == 2'd0 && ha && !o;
            S_RAWA:  last_step = ix == 2'd0 && !o;
            S_VC:    last_step = hv;
            S_RAWV:  last_step = ix == 2'd0;
            default: last_step = 1'b0;
        endcase
    endfunction

    always @* begin
        st_d = st_q;
        ix_d = ix_q;
        if (take) begin
            st_d = S_HEAD;
            ix_d = 2'd0;
        end else if (fire) begin
            ix_d = ix_q - 1'b1;
            case (st_q)
                S_HEAD, S_LB, S_MANT: begin
                    if (st_q == S_HEAD && lb_q) begin
                        st_d = S_LB;
                    end else if (st_q != S_MANT && nb_q != 2'd0) begin
                        st_d = S_MANT;
                        ix_d = nb_q - 1'b1;
                    end else if (st_q != S_MANT || ix_q == 2'd0) begin
                        st_d = S_KIND;
                        ix_d = os_q ? KC_T : KC_F;
                    end
                end
                S_KIND, S_RAWA: begin
                    if (ix_q == 2'd0) begin
                        if (st_q == S_KIND && !ha_q) begin
                            st_d = S_RAWA;
                            ix_d = os_q ? RC_T : RC_F;
                        end else begin
                            st_d = S_VC;
                        end
                    end
                end
                S_VC: begin
                    st_d = S_RAWV;
                    ix_d = RC_V;
                end
                default: ;
            endcase
        end
        iv_d  = take || (iv_q && !(fire && lst_q));
        lst_d = last_step(st_d, ix_d, n_os, ha_q, v_hit);
    end

    // ---- the chunk of the current step and its length
    reg [7:0] ch;
    reg [3:0] chn;
    integer k;
    always @* begin
        ch  = 8'd0;
        chn = 4'd8;
        k   = 0;
        case (st_q)
            S_HEAD: begin
                ch  = head_q;
                chn = hn_q;
            end
            S_LB: begin
                ch  = lbb_q;
                chn = {1'b0, q_q};
            end
            S_MANT:
                for (k = 0; k < NB - 1; k = k + 1)
                    if (ix_q == k[1:0])
                        ch = mant_q[8*k +: 8];
            S_KIND:
                for (k = 0; k <= ncm1(1 + NDK); k = k + 1)
                    if (ix_q == k[1:0]) begin
                        ch = os_q ? chunk({{(64-ND_T-1){1'b0}}, 1'b1, t_code}, 1 + ND_T, k)
                                  : chunk({{(64-ND_F){1'b0}}, fc_q}, 1 + ND_F, k);
                        if (k[1:0] == (os_q ? KC_T : KC_F))
                            chn = os_q ? FL_KT : FL_KF;
                    end
            S_RAWA:
                for (k = 0; k <= ncm1(FW > TYPE_W ? FW : TYPE_W); k = k + 1)
                    if (ix_q == k[1:0]) begin
                        ch = os_q ? chunk({{(64-TYPE_W){1'b0}}, info_q[VAL_W +: TYPE_W]}, TYPE_W, k)
                                  : chunk({{(64-FW){1'b0}}, info_q[FW-1:0]}, FW, k);
                        if (k[1:0] == (os_q ? RC_T : RC_F))
                            chn = os_q ? FL_T : FL_F;
                    end
            S_VC: begin
                ch  = chunk({{(64-ND_V){1'b0}}, v_code}, ND_V, 0);
                chn = FL_C;
            end
            default:
                for (k = 0; k <= ncm1(VAL_W); k = k + 1)
                    if (ix_q == k[1:0]) begin
                        ch = chunk({{(64-VAL_W){1'b0}}, info_q[VAL_W-1:0]}, VAL_W, k);
                        if (k[1:0] == RC_V)
                            chn = FL_V;
                    end
        endcase
    end

    trc_lean_out #(.OUT_W(OUT_W)) u_out (
        .clk(clk), .rst(rst),
        .s_bits(ch), .s_n(chn), .s_flush(fl_q && lst_q), .s_valid(fire), .s_ready(go),
        .s_ready_next(go_next),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );

    always @(posedge clk) begin
        if (take) begin
            os_q   <= os;
            fl_q   <= os && (otype == T_END || otype == T_SYNC);
            sy_q   <= sync;
            fh_q   <= f_hit;
            fc_q   <= f_code;
            info_q <= info;
            mant_q <= mant;
            head_q <= ts_head;
            hn_q   <= ts_head_n;
            lb_q   <= ts_lb;
            lbb_q  <= ts_lb_bits;
            q_q    <= ts_q;
            nb_q   <= ts_nb;
        end
        st_q  <= st_d;
        ix_q  <= ix_d;
        lst_q <= lst_d;
        if (rst) begin
            iv_q    <= 1'b0;
            fu_q    <= 1'b0;
            s_ready <= 1'b0;
        end else begin
            iv_q    <= iv_d;
            fu_q    <= take && !os;
            // free next clock, or the record's last chunk goes out then
            s_ready <= !iv_d || (lst_d && go_next && !(n_os && (t_busy_n || v_busy_n)));
        end
    end

`ifdef TRC_ASSERT
    // a record takes two clocks at least: the function dictionary's update
    // is done before the next lookup
    always @(posedge clk) begin
        if (!rst)
            assert (!(take && fu_q)) else $error("%m: lookup while an update is due");
    end
`endif

endmodule

`resetall
