// trc_skid_prop: formal harness for trc_skid (yosys-smtbmc). With AXI-Stream
// rules on the input (an offered beat stays until taken), the register slice
// must hold a stalled output beat, never hold more than two beats, offer a
// beat exactly when it holds one, take nothing when it holds two, and (with
// -DTRACK) deliver the k-th beat taken as the k-th beat given, unchanged.
// Parameters: W as in trc_skid (kept small for the solver).
`default_nettype none

module trc_skid_prop #(
    parameter W = 4
) (
    input wire         clk,
    input wire         rst,
    input wire [W-1:0] s_axis_tdata,
    input wire         s_axis_tvalid,
    input wire         m_axis_tready
);
    wire [W-1:0] m_axis_tdata;
    wire         m_axis_tvalid, s_axis_tready;
    wire [1:0]   f_held;

    trc_skid #(.W(W)) dut (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready),
        .m_axis_tdata(m_axis_tdata), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .f_held(f_held)
    );

    // reset first, the input held, a stalled output beat kept
    wire past_valid_q;
    trc_axis_prop #(.W(W)) axis (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready),
        .m_axis_tdata(m_axis_tdata), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .past_valid(past_valid_q)
    );

    wire s_fire = s_axis_tvalid && s_axis_tready;
    wire m_fire = m_axis_tvalid && m_axis_tready;

    reg [2:0] cnt_q;
    reg [3:0] nwr_q, nrd_q;
    always @(posedge clk) begin
        if (rst) begin
            cnt_q <= 0;
            nwr_q <= 0;
            nrd_q <= 0;
        end else begin
            cnt_q <= cnt_q + {2'd0, s_fire} - {2'd0, m_fire};
            nwr_q <= nwr_q + {3'd0, s_fire};
            nrd_q <= nrd_q + {3'd0, m_fire};
        end
    end

`ifdef TRACK
    // verilator lint_off UNDRIVEN
    (* anyconst *) reg [3:0] k_sel;   // free, fixed for the run
    // verilator lint_on UNDRIVEN
    reg [W-1:0] k_data_q;
    reg         k_in_q;
    always @(posedge clk) begin
        if (rst)
            k_in_q <= 1'b0;
        else if (s_fire && nwr_q == k_sel) begin
            k_in_q   <= 1'b1;
            k_data_q <= s_axis_tdata;
        end
    end
`endif

    always @* begin
        if (past_valid_q && !rst) begin
            assert (cnt_q <= 2);
            assert (f_held == cnt_q[1:0]);
            assert (m_axis_tvalid == (cnt_q != 0));
            if (cnt_q == 2)
                assert (!s_axis_tready);
`ifdef TRACK
            if (m_fire && nrd_q == k_sel)
                assert (k_in_q && m_axis_tdata == k_data_q);
`endif
        end
    end
endmodule

`resetall
