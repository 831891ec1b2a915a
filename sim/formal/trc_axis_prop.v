// trc_axis_prop: the AXI-Stream rules around a stream stage with a W-bit
// input and output, for the formal harnesses (trc_fifo_prop, trc_skid_prop):
// the first clock is a reset; the environment holds an offered input beat,
// unchanged, until it is taken (assumed); a stalled output beat stays, with
// its data (asserted). Instantiated beside the stage; past_valid tells the
// harness's own checks that a clock has gone by since the start.
// Parameters: W - data bits
`default_nettype none

module trc_axis_prop #(
    parameter W = 4
) (
    input wire         clk,
    input wire         rst,
    input wire [W-1:0] s_axis_tdata,
    input wire         s_axis_tvalid,
    input wire         s_axis_tready,
    input wire [W-1:0] m_axis_tdata,
    input wire         m_axis_tvalid,
    input wire         m_axis_tready,
    output reg         past_valid
);
    reg init_q = 1'b1;
    always @(posedge clk) init_q <= 1'b0;
    always @* if (init_q) assume (rst);

    reg         past_stall_s_q, past_stall_m_q;
    reg [W-1:0] past_sd_q, past_md_q;
    initial past_valid = 1'b0;
    always @(posedge clk) begin
        past_valid     <= 1'b1;
        past_stall_s_q <= !rst && s_axis_tvalid && !s_axis_tready;
        past_stall_m_q <= !rst && m_axis_tvalid && !m_axis_tready;
        past_sd_q      <= s_axis_tdata;
        past_md_q      <= m_axis_tdata;
    end

    always @* begin
        if (past_valid && !rst && past_stall_s_q)
            assume (s_axis_tvalid && s_axis_tdata == past_sd_q);
        if (past_valid && !rst && past_stall_m_q)
            assert (m_axis_tvalid && m_axis_tdata == past_md_q);
    end
endmodule

`resetall
