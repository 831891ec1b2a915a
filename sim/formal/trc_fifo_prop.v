// trc_fifo_prop: formal harness for trc_fifo (yosys read_verilog -formal,
// yosys-smtbmc). The environment may do anything but keep AXI-Stream rules on
// the input (a beat offered while the FIFO is full stays, unchanged); the
// FIFO must then never overflow or underflow, keep its output beat stable
// while stalled, and deliver exactly the words written, in order. Order and
// integrity use a tracked write: the word written at a free-chosen
// position (anyconst, mod 16) must come out at that position, unchanged
// (with -DTRACK: bounded only; without it, the control properties, which
// k-induction proves for all depths).
// Parameters: W, AW as in trc_fifo (kept small for the solver).
`default_nettype none

module trc_fifo_prop #(
    parameter W  = 4,
    parameter AW = 2
) (
    input wire         clk,
    input wire         rst,
    input wire [W-1:0] s_axis_tdata,
    input wire         s_axis_tvalid,
    input wire         m_axis_tready
);
    localparam [AW+1:0] DEPTH = 1 << AW;
    wire [W-1:0] m_axis_tdata;
    wire         m_axis_tvalid, s_axis_tready, s_afull;
    wire [AW:0]  f_used, f_vis;

    trc_fifo #(.W(W), .AW(AW)) dut (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_afull(s_afull),
        .m_axis_tdata(m_axis_tdata), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .f_used(f_used), .f_vis(f_vis)
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
    wire [AW+1:0] s_inc = {{(AW+1){1'b0}}, s_fire};   // the handshakes, sized
    wire [AW+1:0] m_inc = {{(AW+1){1'b0}}, m_fire};

    // Shadow occupancy from the handshakes alone.
    // A word is readable from the clock after the one that wrote it:
    // vis_q counts the words written before the last edge, not yet read.
    reg [AW+1:0] cnt_q, vis_q;
    reg [3:0]    nwr_q, nrd_q;   // words written / read since reset, mod 16
    always @(posedge clk) begin
        if (rst) begin
            cnt_q <= 0;
            vis_q <= 0;
            nwr_q <= 0;
            nrd_q <= 0;
        end else begin
            cnt_q <= cnt_q + s_inc - m_inc;
            vis_q <= cnt_q - m_inc;
            nwr_q <= nwr_q + {3'd0, s_fire};
            nrd_q <= nrd_q + {3'd0, m_fire};
        end
    end

`ifdef TRACK
    // A tracked word: the k-th written word must be the k-th read word.
    // verilator lint_off UNDRIVEN
    (* anyconst *) reg [3:0] k_sel;   // free, fixed for the run
    // verilator lint_on UNDRIVEN
    reg [W-1:0] k_data_q;
    reg         k_in_q, k_out_q;
    always @(posedge clk) begin
        if (rst) begin
            k_in_q  <= 1'b0;
            k_out_q <= 1'b0;
        end else begin
            if (s_fire && nwr_q == k_sel) begin
                k_in_q   <= 1'b1;
                k_data_q <= s_axis_tdata;
            end
            if (m_fire && nrd_q == k_sel)
                k_out_q <= 1'b1;
        end
    end
`endif

    always @* begin
        if (past_valid_q && !rst) begin
            // no overflow, no underflow, flags agree with the occupancy
            assert (cnt_q <= DEPTH);
            assert (m_axis_tvalid == (vis_q != 0));
            assert (s_axis_tready == (cnt_q != DEPTH));
            assert (s_afull == (cnt_q == DEPTH - 1));
            // the pointers agree with the handshakes (makes it inductive)
            assert (f_used == cnt_q[AW:0]);
            assert (vis_q <= cnt_q && f_vis == vis_q[AW:0]);
`ifdef TRACK
            // the tracked word comes out unchanged, in its place
            if (m_fire && nrd_q == k_sel)
                assert (k_in_q && m_axis_tdata == k_data_q);
            if (k_out_q)
                assert (k_in_q);
`endif
        end
    end
endmodule

`resetall
