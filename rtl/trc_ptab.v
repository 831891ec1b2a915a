// trc_ptab: the stack mode predictor table, 2^SK entries of W bits in one
// block RAM (synchronous read), with a valid bit per entry in flops so that a
// SYNC clears the whole table in one clock. An invalid entry reads as zero,
// the format's reset entry. A write and a read of the same address in one
// clock forward the written data, so the result never depends on the RAM's
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
    input  wire          clr,     // SYNC: every entry back to zero
    input  wire [SK-1:0] raddr,   // read, result in rdata after the clock
    input  wire          same,    // waddr == raddr (given: the user knows it early)
    input  wire          we,
    input  wire [SK-1:0] waddr,
    input  wire [W-1:0]  wdata,
    output wire [W-1:0]  rdata
);

    localparam N = 1 << SK;

    reg [W-1:0] mem [0:N-1];
    reg [W-1:0] mem_q;
    always @(posedge clk) begin
        if (we)
            mem[waddr] <= wdata;
        mem_q <= mem[raddr];
    end

    // The valid flag is looked up after the clock, at the registered
    // address: a write in between went to that address only if it is
    // forwarded, and a clear in between clears the flag too.
    reg [N-1:0]  vld_q;
    reg [SK-1:0] ra_q;
    reg          fwd_q;
    reg [W-1:0]  fwd_data_q;
    always @(posedge clk) begin
        if (rst || clr)
            vld_q <= {N{1'b0}};
        else if (we)
            vld_q[waddr] <= 1'b1;
        ra_q       <= raddr;
        fwd_q      <= !clr && we && same;
        fwd_data_q <= wdata;
    end

    assign rdata = fwd_q ? fwd_data_q : vld_q[ra_q] ? mem_q : {W{1'b0}};

endmodule

`resetall
