// trc_skid: AXI-Stream register slice with a skid register. Both s_axis_tready
// and the m_axis side come straight from flops, so no combinational path runs
// from m_axis_tready to s_axis_tready; one beat per clock when m_axis_tready
// stays high.
// Parameters:
//   W - data width
`default_nettype none

module trc_skid #(
    parameter W = 47
) (
    input  wire         clk,
    input  wire         rst,
    // ---- in
    input  wire [W-1:0] s_axis_tdata,
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,
    // ---- out
    output wire [W-1:0] m_axis_tdata,
    output wire         m_axis_tvalid,
    input  wire         m_axis_tready
`ifdef FORMAL
    ,
    output wire [1:0]   f_held  // beats held, for sim/formal/trc_skid_prop.v
`endif
);

    reg [W-1:0] out_q, out_d, tmp_q, tmp_d;
    reg         out_v_q, out_v_d, tmp_v_q, tmp_v_d;
    reg         rdy_q;      // == !tmp_v_q, but low in reset and the cycle after

    assign s_axis_tready = rdy_q;
    assign m_axis_tdata  = out_q;
    assign m_axis_tvalid = out_v_q;

    wire s_fire = s_axis_tvalid && rdy_q;

    always @* begin
        out_d   = out_q;
        out_v_d = out_v_q;
        tmp_d   = tmp_q;
        tmp_v_d = tmp_v_q;
        if (!out_v_q || m_axis_tready) begin
            if (tmp_v_q) begin
                out_d   = tmp_q;
                out_v_d = 1'b1;
                tmp_v_d = 1'b0;
            end else begin
                out_d   = s_axis_tdata;
                out_v_d = s_fire;
            end
        end else if (s_fire) begin
            tmp_v_d = 1'b1;
        end
        // An empty skid register takes every input beat: only its valid
        // flag waits for m_axis_tready, not its W data flops.
        if (!tmp_v_q)
            tmp_d = s_axis_tdata;
    end

    always @(posedge clk) begin
        out_q <= out_d;
        tmp_q <= tmp_d;
        if (rst) begin
            out_v_q <= 1'b0;
            tmp_v_q <= 1'b0;
            rdy_q   <= 1'b0;
        end else begin
            out_v_q <= out_v_d;
            tmp_v_q <= tmp_v_d;
            rdy_q   <= !tmp_v_d;
        end
    end

`ifdef FORMAL
    assign f_held = {1'b0, out_v_q} + {1'b0, tmp_v_q};
`endif

`ifdef TRC_ASSERT
    // Handshake rules: the upstream holds a beat until taken; so do we.
    reg         past_v_q;
    reg [W-1:0] past_d_q;
    reg         past_s_q;
    reg [W-1:0] past_sd_q;
    always @(posedge clk) begin
        past_v_q  <= !rst && m_axis_tvalid && !m_axis_tready;
        past_d_q  <= m_axis_tdata;
        past_s_q  <= !rst && s_axis_tvalid && !s_axis_tready;
        past_sd_q <= s_axis_tdata;
        if (!rst && past_v_q)
            assert (m_axis_tvalid && m_axis_tdata == past_d_q)
                else $error("%m: m_axis beat changed while stalled");
        if (!rst && past_s_q)
            assert (s_axis_tvalid && s_axis_tdata == past_sd_q)
                else $error("%m: s_axis beat withdrawn or changed while stalled");
    end
`endif

endmodule

`resetall
