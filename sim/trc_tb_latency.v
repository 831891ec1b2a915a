// trc_tb_latency: the encoder's latency, for Icarus. One END record is taken
// on clock edge k after reset with m_axis_tready high; prints the edge of the
// first output handshake as "latency MODE M: k+N" (docs/rtl.md,
// "Latency"). Parameter: MODE as trc_enc's; OUT_W 64, paper widths.
`default_nettype none

module trc_tb_latency #(
    parameter MODE = 0
);

    localparam TYPE_W = 7, VAL_W = 16, NT = 23, INFO_W = 23;

    reg              clk = 1'b0;
    reg              rst = 1'b1;
    reg [NT+INFO_W:0] s_tdata = {(NT + INFO_W + 1){1'b0}};
    reg              s_tvalid = 1'b0;
    wire             s_tready;
    wire [63:0]      m_tdata;
    wire [7:0]       m_tkeep;
    wire             m_tlast, m_tvalid;

    trc_enc #(.MODE(MODE), .OUT_W(64)) dut (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_tdata), .s_axis_tvalid(s_tvalid), .s_axis_tready(s_tready),
        .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
        .m_axis_tvalid(m_tvalid), .m_axis_tready(1'b1)
    );

    always #5 clk = ~clk;

    integer n;
    initial begin
        repeat (5) @(posedge clk);
        @(negedge clk) rst = 1'b0;
        @(negedge clk);
        // an OS record of type END, delta 0
        s_tdata = {1'b1, {NT{1'b0}}, {{(TYPE_W - 1){1'b1}}, 1'b0}, {VAL_W{1'b0}}};
        s_tvalid = 1'b1;
        @(posedge clk);
        if (!s_tready) begin
            $display("FAIL the input was not ready after reset");
            $finish;
        end
        @(negedge clk) s_tvalid = 1'b0;
        // m_tvalid read just after edge k+n is the value edge k+n-1 made: the
        // handshake is on edge k+n
        for (n = 1; n <= 40; n = n + 1) begin
            @(posedge clk);
            if (m_tvalid) begin
                $display("latency MODE %0d: k+%0d", MODE, n);
                $finish;
            end
        end
        $display("FAIL no output in 40 clocks");
        $finish;
    end

endmodule
