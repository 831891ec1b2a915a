// trc_core: trace compressor for a real MPU: time-stamper (events on a valid
// strobe, no back-pressure) -> input FIFO -> trc_enc. A full FIFO drops
// events and counts them; a LOST record with the count follows as soon as
// there is room. flush writes END. Ports and timing: docs/rtl.md.
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, OUT_W, MODE, SK, SD, SO, LEAN,
//   CHECK -    as in trc_enc
//   SYNC_EVERY - as in trc_enc: a frame (ending with SYNC and tlast) every N
//              trace records (events and LOST); 0 = never
//   PRESCALE - clock cycles per tick, >= 1
//   FIFO_AW  - input FIFO address bits (2^FIFO_AW records), 1..16; 0: one
//              register instead (a record every second clock at most)
//   DT_W     - ticks counter width, NT+1..64: time stays exact while records
//              wait for room less than 2^DT_W-1 ticks
//   DROP_W   - dropped events counter width, VAL_W+1..64: LOST counts stay
//              exact up to 2^DROP_W - 2^(DROP_W-VAL_W) drops
//   INFO_W   - derived, do not set: max(1+FID_W, TYPE_W+VAL_W)
`default_nettype none
`include "trc_format.vh"

module trc_core #(
    parameter NT       = 23,
    parameter FID_W    = 15,
    parameter TYPE_W   = 7,
    parameter VAL_W    = 16,
    parameter ND_F     = 3,
    parameter ND_T     = 3,
    parameter ND_V     = 3,
    parameter OUT_W    = 64,
    parameter MODE     = 0,
    parameter SK       = 9,
    parameter SD       = 16,
    parameter SO       = 9,
    parameter LEAN     = 0,
    parameter CHECK    = 0,
    parameter SYNC_EVERY = 0,
    parameter PRESCALE = 1,
    parameter FIFO_AW  = 4,
    parameter DT_W     = 48,
    parameter DROP_W   = 48,
    parameter INFO_W   = `TRC_INFO_W(FID_W, TYPE_W, VAL_W)
) (
    input  wire                 clk,
    input  wire                 rst,
    // ---- events from the target (never stalled)
    input  wire                 ev_valid,
    input  wire                 ev_os,     // 0 function, 1 OS info
    input  wire [INFO_W-1:0]    ev_info,   // layout as trc_enc's info field
    input  wire                 flush,     // write END and end the word
    output wire                 drop,      // pulse: an event was dropped
    // ---- compressed stream out
    output wire [OUT_W-1:0]     m_axis_tdata,
    output wire [OUT_W/8-1:0]   m_axis_tkeep,
    output wire                 m_axis_tlast,
    output wire                 m_axis_tvalid,
    input  wire                 m_axis_tready
);

    localparam REC_W = 1 + NT + INFO_W;

    generate
        `TRC_PARAM_CHECK(PRESCALE >= 1, g_bad_prescale, trc_bad_param_PRESCALE,
                         "trc_core: PRESCALE must be >= 1")
        `TRC_PARAM_CHECK(FIFO_AW >= 0 && FIFO_AW <= 16, g_bad_fifo_aw, trc_bad_param_FIFO_AW,
                         "trc_core: FIFO_AW must be 0..16")
        `TRC_PARAM_CHECK(DT_W > NT && DT_W <= 64, g_bad_dt_w, trc_bad_param_DT_W,
                         "trc_core: DT_W must be NT+1..64")
        `TRC_PARAM_CHECK(DROP_W > VAL_W && DROP_W <= 64, g_bad_drop_w, trc_bad_param_DROP_W,
                         "trc_core: DROP_W must be VAL_W+1..64")
    endgenerate

    // The time-stamper writes whole records (FILL 0): with the fill after
    // the FIFO (trc_tstamp_fill) trc_core took fewer LUTs, but its ECP5
    // Fmax fell by an eighth (reports/mp.md, "The fill after the input
    // register"); trc_mpenc, where one fill serves every CPU, uses it.
    wire [REC_W-1:0] ts_rec, fi_rec;
    wire             unused_tag;
    wire             unused_busy, unused_due;
    wire [3:0]       unused_w;
    wire             ts_valid, ts_ready, fi_valid, fi_ready;

    trc_tstamp #(
        .NT(NT), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .INFO_W(INFO_W),
        .PRESCALE(PRESCALE), .DT_W(DT_W), .DROP_W(DROP_W), .FILL(0)
    ) u_tstamp (
        .clk(clk), .rst(rst),
        .ev_valid(ev_valid), .ev_os(ev_os), .ev_info(ev_info), .flush(flush),
        .ev_first(1'b0), .ev_lost(1'b0), .busy(unused_busy), .due(unused_due),
        .drop(drop),
        .wx_slot(1'b0), .wl_slot(1'b0), .w_one(1'b0),
        .wx_inc(unused_w[0]), .wx_dec(unused_w[1]), .wl_inc(unused_w[2]), .wl_dec(unused_w[3]),
        .m_axis_tdata(ts_rec), .m_axis_tvalid(ts_valid), .m_axis_tuser(unused_tag),
        .m_axis_tready(ts_ready)
    );

    generate
        if (FIFO_AW > 0) begin : g_fifo
            wire unused_afull;
            trc_fifo #(.W(REC_W), .AW(FIFO_AW)) u_fifo (
                .clk(clk), .rst(rst),
                .s_axis_tdata(ts_rec), .s_axis_tvalid(ts_valid),
                .s_axis_tready(ts_ready), .s_afull(unused_afull),
                .m_axis_tdata(fi_rec), .m_axis_tvalid(fi_valid),
                .m_axis_tready(fi_ready)
            );
        end else begin : g_reg
            // one record: it takes a record only when empty, so its room
            // is a flop and it has no multiplexer
            reg [REC_W-1:0] r_q;
            reg             v_q;
            assign ts_ready = !v_q;
            assign fi_rec   = r_q;
            assign fi_valid = v_q;
            always @(posedge clk) begin
                if (!v_q)
                    r_q <= ts_rec;
                if (rst)
                    v_q <= 1'b0;
                else
                    v_q <= v_q ? !fi_ready : ts_valid;
            end
        end
    endgenerate

    trc_enc #(
        .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
        .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W),
        .MODE(MODE), .SK(SK), .SD(SD), .SO(SO), .LEAN(LEAN), .SYNC_EVERY(SYNC_EVERY),
        .CHECK(CHECK)
    ) u_enc (
        .clk(clk), .rst(rst),
        .s_axis_tdata(fi_rec), .s_axis_tvalid(fi_valid), .s_axis_tready(fi_ready),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );

endmodule

`resetall
