// trc_sim_enc: simulation wrapper around trc_enc for the Verilator harness.
// One build holds the encoder at all four output widths; out_sel picks the
// instance the harness drives (the others see tvalid low). Outputs are
// right-aligned in 64 bits.
// Parameters: NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, SYNC_EVERY, MODE,
//   SK, SD, SO, LEAN, CHECK as in trc_enc;
//   REC_W - derived record width, do not set
`default_nettype none
`include "trc_format.vh"

module trc_sim_enc #(
    parameter NT     = 23,
    parameter FID_W  = 15,
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter ND_F   = 3,
    parameter ND_T   = 3,
    parameter ND_V   = 3,
    parameter SYNC_EVERY = 0,
    parameter MODE   = 0,
    parameter SK     = 9,
    parameter SD     = 16,
    parameter SO     = 9,
    parameter TQ     = 1,
    parameter FE     = 0,
    parameter LEAN   = 0,
    parameter CHECK  = 0,
    parameter REC_W  = 1 + NT + `TRC_INFO_W(FID_W, TYPE_W, VAL_W)
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [1:0]       out_sel,        // OUT_W = 8 << out_sel
    // ---- records in
    input  wire [REC_W-1:0] s_axis_tdata,
    input  wire             s_axis_tvalid,
    output wire             s_axis_tready,
    // ---- stream out (right-aligned)
    output wire [63:0]      m_axis_tdata,
    output wire [7:0]       m_axis_tkeep,
    output wire             m_axis_tlast,
    output wire             m_axis_tvalid,
    input  wire             m_axis_tready
);

    wire [3:0]  s_tready, m_tlast, m_tvalid;
    wire [63:0] m_tdata [0:3];
    wire [7:0]  m_tkeep [0:3];

    genvar g;
    generate
        for (g = 0; g < 4; g = g + 1) begin : g_w
            localparam OUT_W = 8 << g;
            wire [OUT_W-1:0]   tdata;
            wire [OUT_W/8-1:0] tkeep;
            wire               sel = out_sel == g;
            trc_enc #(
                .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
                .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W),
                .SYNC_EVERY(SYNC_EVERY), .MODE(MODE), .SK(SK), .SD(SD), .SO(SO),
                .TQ(TQ), .FE(FE), .LEAN(LEAN), .CHECK(CHECK)
            ) u_enc (
                .clk(clk), .rst(rst),
                .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid && sel),
                .s_axis_tready(s_tready[g]),
                .m_axis_tdata(tdata), .m_axis_tkeep(tkeep),
                .m_axis_tlast(m_tlast[g]), .m_axis_tvalid(m_tvalid[g]),
                .m_axis_tready(m_axis_tready && sel)
            );
            assign m_tdata[g] = {{(64-OUT_W){1'b0}}, tdata};
            assign m_tkeep[g] = {{(8-OUT_W/8){1'b0}}, tkeep};
        end
    endgenerate

    assign s_axis_tready = s_tready[out_sel];
    assign m_axis_tdata  = m_tdata[out_sel];
    assign m_axis_tkeep  = m_tkeep[out_sel];
    assign m_axis_tlast  = m_tlast[out_sel];
    assign m_axis_tvalid = m_tvalid[out_sel];

endmodule

`resetall
