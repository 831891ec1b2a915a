// trc_lz4_ram: simple dual-port RAM, one write port and one registered read
// port on the same clock. A read of the address written in the same cycle
// returns the old contents (read-first), which the hash table relies on.
// Maps to iCE40 SB_RAM40_4K, ECP5 DP16KD and Virtex-4 RAMB16.
//   AW: address bits (depth 2^AW)
//   DW: data bits
`default_nettype none

module trc_lz4_ram #(
    parameter integer AW = 9,  // address bits
    parameter integer DW = 8   // data bits
) (
    input  wire          clk,
    // write port
    input  wire          we,
    input  wire [AW-1:0] waddr,
    input  wire [DW-1:0] wdata,
    // read port: rdata holds mem[raddr] of the last cycle with re
    input  wire          re,
    input  wire [AW-1:0] raddr,
    output reg  [DW-1:0] rdata
);
  reg [DW-1:0] mem[0:(1<<AW)-1];

  always @(posedge clk) begin
    if (we) mem[waddr] <= wdata;
    if (re) rdata <= mem[raddr];
  end
endmodule

`resetall
