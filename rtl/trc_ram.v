// trc_ram: a simple dual-port RAM read in two clocks, for the context
// tables (trc_ptab). On re the word at raddr is read; on oe it moves into
// the output register rdata. The RAM's own output therefore meets no logic:
// on ECP5 (define TRC_ECP5, set by fpga/flow.py) the output register is the
// block RAM's own (DP16KD with REGMODE OUTREG), since Yosys never puts a
// register there itself and the RAM's clock-to-output alone (4.3 ns at
// speed 8) would leave little of a 5 ns clock; elsewhere it is inferred
// (block RAM and a register of the fabric). A read of the word being
// written returns either: trc_ptab forwards writes and never uses it.
// Parameters:
//   AW - address bits
//   W  - word width
`default_nettype none

module trc_ram #(
    parameter AW = 9,
    parameter W  = 36
) (
    input  wire          clk,
    input  wire          we,
    input  wire [AW-1:0] waddr,
    input  wire [W-1:0]  wdata,
    input  wire          re,       // read raddr
    input  wire [AW-1:0] raddr,
    input  wire          oe,       // rdata takes the word read
    output wire [W-1:0]  rdata
);

`ifdef TRC_ECP5
    // DP16KD blocks in true dual port mode, columns of the narrowest width
    // that holds 2^AW words: port A reads, through its output register,
    // port B writes. (The 36-bit pseudo dual port mode would take fewer
    // blocks for the wide tables, but splits its read word over both
    // ports' output registers.)
    localparam DWA = AW >= 14 ? 1 : AW == 13 ? 2 : AW == 12 ? 4 : AW == 11 ? 9 : 18;
    localparam NB  = (W + DWA - 1) / DWA;
    localparam WP  = NB * DWA;
    localparam LOW = DWA == 18 ? 4 : DWA == 9 ? 3 : DWA == 4 ? 2 : DWA == 2 ? 1 : 0;
    wire [WP-1:0] wd = {{(WP-W){1'b0}}, wdata};
    wire [WP-1:0] rd;
    // the word address above the bits a port's width leaves unused
    wire [13:0] ra = {{(14-AW-LOW){1'b0}}, raddr, {LOW{1'b0}}};
    wire [13:0] wa = {{(14-AW-LOW){1'b0}}, waddr, {LOW{1'b0}}};
    genvar b;
    generate
        for (b = 0; b < NB; b = b + 1) begin : g_blk
            wire [17:0] dib = {{(18-DWA){1'b0}}, wd[b*DWA +: DWA]};
            wire [17:0] dia = 18'd0;
            // at 18 bits the write port's low two address bits are byte
            // enables
            wire [13:0] a_a = ra;
            wire [13:0] a_b = DWA == 18 ? {wa[13:2], 2'b11} : wa;
            wire [17:0] doa, dob;
            DP16KD #(
                .DATA_WIDTH_A(DWA), .DATA_WIDTH_B(DWA),
                .REGMODE_A("OUTREG"), .REGMODE_B("NOREG"),
                .WRITEMODE_A("NORMAL"), .WRITEMODE_B("NORMAL")
            ) u_bram (
                .CLKA(clk), .CEA(re), .OCEA(oe), .WEA(1'b0), .RSTA(1'b0), .CSA0(1'b0), .CSA1(1'b0), .CSA2(1'b0),
                .ADA0(a_a[0]), .ADA1(a_a[1]), .ADA2(a_a[2]), .ADA3(a_a[3]),
                .ADA4(a_a[4]), .ADA5(a_a[5]), .ADA6(a_a[6]), .ADA7(a_a[7]),
                .ADA8(a_a[8]), .ADA9(a_a[9]), .ADA10(a_a[10]), .ADA11(a_a[11]),
                .ADA12(a_a[12]), .ADA13(a_a[13]),
                .DIA0(dia[0]), .DIA1(dia[1]), .DIA2(dia[2]), .DIA3(dia[3]), .DIA4(dia[4]),
                .DIA5(dia[5]), .DIA6(dia[6]), .DIA7(dia[7]), .DIA8(dia[8]), .DIA9(dia[9]),
                .DIA10(dia[10]), .DIA11(dia[11]), .DIA12(dia[12]), .DIA13(dia[13]),
                .DIA14(dia[14]), .DIA15(dia[15]), .DIA16(dia[16]), .DIA17(dia[17]),
                .DOA0(doa[0]), .DOA1(doa[1]), .DOA2(doa[2]), .DOA3(doa[3]), .DOA4(doa[4]),
                .DOA5(doa[5]), .DOA6(doa[6]), .DOA7(doa[7]), .DOA8(doa[8]), .DOA9(doa[9]),
                .DOA10(doa[10]), .DOA11(doa[11]), .DOA12(doa[12]), .DOA13(doa[13]),
                .DOA14(doa[14]), .DOA15(doa[15]), .DOA16(doa[16]), .DOA17(doa[17]),
                .CLKB(clk), .CEB(1'b1), .OCEB(1'b1), .WEB(we), .RSTB(1'b0), .CSB0(1'b0), .CSB1(1'b0), .CSB2(1'b0),
                .ADB0(a_b[0]), .ADB1(a_b[1]), .ADB2(a_b[2]), .ADB3(a_b[3]),
                .ADB4(a_b[4]), .ADB5(a_b[5]), .ADB6(a_b[6]), .ADB7(a_b[7]),
                .ADB8(a_b[8]), .ADB9(a_b[9]), .ADB10(a_b[10]), .ADB11(a_b[11]),
                .ADB12(a_b[12]), .ADB13(a_b[13]),
                .DIB0(dib[0]), .DIB1(dib[1]), .DIB2(dib[2]), .DIB3(dib[3]), .DIB4(dib[4]),
                .DIB5(dib[5]), .DIB6(dib[6]), .DIB7(dib[7]), .DIB8(dib[8]), .DIB9(dib[9]),
                .DIB10(dib[10]), .DIB11(dib[11]), .DIB12(dib[12]), .DIB13(dib[13]),
                .DIB14(dib[14]), .DIB15(dib[15]), .DIB16(dib[16]), .DIB17(dib[17]),
                .DOB0(dob[0]), .DOB1(dob[1]), .DOB2(dob[2]), .DOB3(dob[3]), .DOB4(dob[4]),
                .DOB5(dob[5]), .DOB6(dob[6]), .DOB7(dob[7]), .DOB8(dob[8]), .DOB9(dob[9]),
                .DOB10(dob[10]), .DOB11(dob[11]), .DOB12(dob[12]), .DOB13(dob[13]),
                .DOB14(dob[14]), .DOB15(dob[15]), .DOB16(dob[16]), .DOB17(dob[17])
            );
            assign rd[b*DWA +: DWA] = doa[DWA-1:0];
            wire unused_dob = ^dob;
        end
    endgenerate
    assign rdata = rd[W-1:0];
`else
    (* no_rw_check *)
    reg [W-1:0] mem [0:(1<<AW)-1];
    reg [W-1:0] mem_q, out_q;
    always @(posedge clk) begin
        if (we)
            mem[waddr] <= wdata;
        if (re)
            mem_q <= mem[raddr];
        if (oe)
            out_q <= mem_q;
    end
    assign rdata = out_q;
`endif

endmodule

`resetall
