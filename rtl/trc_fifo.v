// trc_fifo: synchronous FIFO with AXI-Stream handshakes (first-word
// fall-through, two clocks from write to output). s_axis_tready is low
// exactly when it is full, and comes from a flop: the writer's decision
// (trc_tstamp's, which drops events on a full FIFO) does not wait for a
// pointer compare. s_afull (one entry free) is a flop for the same reason:
// trc_mpcore keeps that entry for a broadcast, and every time-stamper
// decision waits on it. The output word is read into a register every clock at
// the next read address, and a word becomes visible one clock after its
// write: the read never needs the word being written, so the memory maps
// to block RAM without a write-through bypass (the iCE40 has no LUT RAM).
// The read address is a select between the read pointer and its successor,
// both flops, by the read handshake, whose valid half is a flop too: the
// reader's ready goes through one select to the memory's address (this is
// trc_core's path from the encoder's input skid into the FIFO's memory).
// Parameters:
//   W  - data width
//   AW - address bits; 2^AW entries
`default_nettype none

module trc_fifo #(
    parameter W  = 47,
    parameter AW = 4
) (
    input  wire         clk,
    input  wire         rst,
    // ---- in
    input  wire [W-1:0] s_axis_tdata,
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,
    output wire         s_afull,    // one entry free (a flop, like the full flag)
    // ---- out
    output wire [W-1:0] m_axis_tdata,
    output wire         m_axis_tvalid,
    input  wire         m_axis_tready
`ifdef FORMAL
    ,
    output wire [AW:0]  f_used, // occupancy, for sim/formal/trc_fifo_prop.v
    output wire [AW:0]  f_vis   // of which readable
`endif
);

    localparam [AW+1:0] DEPTH = 1 << AW;

    // A read in the clock of a write to the same entry is never used (that
    // word is not readable yet), so Yosys may map it without a bypass.
    (* no_rw_check *)
    reg [W-1:0] mem [0:DEPTH-1];
    reg [W-1:0] out_q;
    reg [AW:0]  wp_q, wp_d, rp_q, rp_d;
    reg [AW:0]  rp1_q;  // rp_q + 1
    reg [AW:0]  wv_q;   // write pointer a clock late: words readable below it
    wire        unused_wv = ^wv_q;  // read by the checks only (empty_q holds its compare)
    reg         full_q, full_d;
    reg         afull_q, afull_d;  // used == DEPTH - 1
    reg         empty_q; // wv_q == rp_q

    wire [AW:0] used  = wp_q - rp_q;
    wire        empty = empty_q;
    wire        afull = afull_q;
    localparam [AW+1:0] DEPTH2 = DEPTH - {{AW{1'b0}}, 2'd2};
    wire        two_free = used == DEPTH2[AW:0];  // feeds afull_q only
    wire        full  = full_q;
    wire        wr    = s_axis_tvalid && !full;
    wire        rd    = m_axis_tvalid && m_axis_tready;

    assign s_axis_tready = !full;
    assign s_afull       = afull;
    assign m_axis_tvalid = !empty;
    assign m_axis_tdata  = out_q;

    always @* begin
        wp_d = wr ? wp_q + 1'b1 : wp_q;
        rp_d = rd ? rp1_q : rp_q;
        full_d = full_q ? !rd : (wr && !rd && afull);
        // the occupancy moves by one at most: from DEPTH - 2 up, or from full down
        afull_d = (wr && !rd) ? two_free : (!wr && rd) ? full_q : afull_q;
    end

    always @(posedge clk) begin
        if (wr)
            mem[wp_q[AW-1:0]] <= s_axis_tdata;
        out_q <= mem[rp_d[AW-1:0]];
        if (rst) begin
            wp_q   <= {(AW+1){1'b0}};
            wv_q   <= {(AW+1){1'b0}};
            rp_q    <= {(AW+1){1'b0}};
            rp1_q   <= {{AW{1'b0}}, 1'b1};
            full_q  <= 1'b0;
            afull_q <= 1'b0;
            empty_q <= 1'b1;
        end else begin
            wp_q    <= wp_d;
            wv_q    <= wp_q;
            rp_q    <= rp_d;
            if (rd)
                rp1_q <= rp1_q + 1'b1;
            full_q  <= full_d;
            afull_q <= afull_d;
            empty_q <= wp_q == rp_d;
        end
    end

`ifdef FORMAL
    assign f_used = used;
    assign f_vis  = wv_q - rp_q;
    // the output register holds the head word (makes k-induction hold)
    always @* if (!rst && !empty) assert (out_q == mem[rp_q[AW-1:0]]);
    always @* if (!rst) assert (empty_q == (wv_q == rp_q) && rp1_q == rp_q + 1'b1);
    always @* if (!rst) assert (full_q == (used == DEPTH[AW:0]) && afull_q == (used == DEPTH[AW:0] - 1'b1));
`endif

`ifdef TRC_ASSERT
    // Occupancy never exceeds DEPTH (no overflow), a read never takes an
    // empty FIFO (no underflow), the full flag is the occupancy's, and a
    // stalled output beat stays put.
    reg         past_stall_q;
    reg [W-1:0] past_data_q;
    always @(posedge clk) begin
        past_stall_q <= !rst && m_axis_tvalid && !m_axis_tready;
        past_data_q  <= m_axis_tdata;
        if (!rst) begin
            assert (!(s_axis_tvalid && full))
                else $error("%m: write while full (the writer must check s_axis_tready)");
            assert (used <= DEPTH[AW:0])
                else $error("%m: occupancy above depth (overflow)");
            assert (!(rd && empty))
                else $error("%m: read while empty (underflow)");
            assert (full_q == (used == DEPTH[AW:0]))
                else $error("%m: full flag disagrees with the occupancy");
            assert (afull_q == (used == DEPTH[AW:0] - 1'b1))
                else $error("%m: one-entry-free flag disagrees with the occupancy");
            assert (empty_q == (wv_q == rp_q) && rp1_q == rp_q + 1'b1)
                else $error("%m: empty flag or next read pointer disagrees with the pointers");
        end
        if (!rst && past_stall_q)
            assert (m_axis_tvalid && m_axis_tdata == past_data_q)
                else $error("%m: m_axis beat changed while stalled");
    end
`endif

endmodule

`resetall
