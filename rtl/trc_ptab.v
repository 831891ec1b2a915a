// trc_ptab: the stack mode predictor table, 2^SK entries of W bits in one
// block RAM, with a valid bit per entry in flops so that a SYNC clears the
// whole table in one clock. An invalid entry (rvalid low) is zero, the
// format's reset entry.
// Reads take two clocks, so that the RAM's output (slow on every FPGA) only
// goes into a register: the address is given one stage ahead of the record
// that uses the entry (the address depends on the call stack only, not on
// table contents); rdata is a register loaded by ld, rvalid a lookup among
// registers loaded by ld. Two writes can fall between a read and its load;
// both are forwarded, so the result never depends on the RAM's
// read-during-write behaviour.
// Parameters:
//   SK - address bits (table index), 4..12
//   W  - entry width
`default_nettype none

module trc_ptab #(
    parameter SK = 9,
    parameter W  = 36
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [SK-1:0] raddr,   // read (every clock): the entry for the next ld
    // ld: rdata <= the entry read at the last clock; the user's current
    // record leaves, and does what it has pending: a write (wpend) or a
    // SYNC's clear of every entry (cpend), never both
    input  wire          ld,
    input  wire          wpend,
    input  wire          cpend,
    input  wire [SK-1:0] waddr,
    input  wire [W-1:0]  wdata,
    output reg  [W-1:0]  rdata,
    output wire          rvalid   // rdata is the entry; else the entry is zero
);

    localparam N = 1 << SK;

    // The pending parts decide the forwarding below, ld only enables:
    // ld is the slowest input (it follows the output's ready).
    wire we  = ld && wpend;
    wire clr = ld && cpend;

    // A read of the address being written returns what the RAM likes: it
    // is never used (w1 forwarding), and no_rw_check keeps Yosys from
    // building bypass logic for it.
    (* no_rw_check *)
    reg [W-1:0] mem [0:N-1];
    reg [W-1:0] mem_q;
    always @(posedge clk) begin
        if (we)
            mem[waddr] <= wdata;
        mem_q <= mem[raddr];
    end

    // The entry at ra_q now: the RAM's word, unless the write of the last
    // clock (w1) went there (read during write); it is valid if its flag is
    // set or w1 wrote it (a clear in between cleared the flag).
    reg [N-1:0]  vld_q;
    reg [SK-1:0] ra_q, w1_addr_q;
    reg          w1_q;
    reg [W-1:0]  w1_data_q;
    always @(posedge clk) begin
        if (rst || clr)
            vld_q <= {N{1'b0}};
        else if (we)
            vld_q[waddr] <= 1'b1;
        ra_q      <= raddr;
        w1_addr_q <= waddr;
        w1_data_q <= wdata;
        if (rst)
            w1_q <= 1'b0;
        else
            w1_q <= we;
    end
    wire w1_hit = w1_q && w1_addr_q == ra_q;

    // ... and after this clock's write or clear. The flag's 2^SK-way
    // lookup is split over the two clocks between the address and the use:
    // the low LB address bits select one flag per group before ld (part_q),
    // the high ones select the group after it. The write or clear at ld
    // itself is in hit_q / clr_q (w1's write is in vld_q already).
    // The user treats rdata as zero when rvalid is low, where that is not
    // on its slowest paths.
    localparam HB = SK / 2, LB = SK - HB;
    wire w0_hit = wpend && waddr == ra_q;
    reg  [(1<<HB)-1:0] part_q;
    reg  [HB-1:0]      rhi_q;
    reg                hit_q, clr_q;
    integer g;
    always @(posedge clk)
        if (ld) begin
            rdata <= w0_hit ? wdata : w1_hit ? w1_data_q : mem_q;
            for (g = 0; g < (1 << HB); g = g + 1)
                part_q[g] <= vld_q[g * (1 << LB) + {{(32-LB){1'b0}}, ra_q[LB-1:0]}];
            rhi_q <= ra_q[SK-1:LB];
            hit_q <= w0_hit || w1_hit;
            clr_q <= cpend;
        end
    assign rvalid = !clr_q && (hit_q || part_q[rhi_q]);

endmodule

`resetall
