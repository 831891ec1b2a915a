// trc_soc: simulation system around trc_soc_cpu: RAM holding the firmware
// image (+firmware=FILE.hex, 32-bit words), a UART that hands each byte to
// the harness, a periodic timer interrupt (IRQ 3), an exit register, a
// workload number (+workload=N) and the trace stream on m_axis. Memory map: docs/soc.md.
// Parameters:
//   MEM_AW  - RAM address bits in words (2^MEM_AW x 4 bytes)
//   MODE, SK, SD, LEAN, OUT_W, FIFO_AW, DT_W, DROP_W, SD_AW - passed to
//             trc_soc_cpu (the tracer)
`default_nettype none

module trc_soc #(
    parameter MEM_AW  = 14,
    parameter MODE    = 0,
    parameter SK      = 9,
    parameter SD      = 16,
    parameter LEAN    = 0,
    parameter OUT_W   = 64,
    parameter FIFO_AW = 4,
    parameter DT_W    = 48,
    parameter DROP_W  = 48,
    parameter SD_AW   = 5,
    parameter INFO_W  = 23
) (
    input  wire               clk,
    input  wire               rst,
    // ---- trace out
    output wire [OUT_W-1:0]   m_axis_tdata,
    output wire [OUT_W/8-1:0] m_axis_tkeep,
    output wire               m_axis_tlast,
    output wire               m_axis_tvalid,
    input  wire               m_axis_tready,
    input  wire               trace_flush,
    output wire               trace_drop,
    output wire               trace_gap,
    output wire               ev_valid,
    output wire [INFO_W:0]    ev_data,
    output wire               retire,
    // ---- simulation devices
    output reg                uart_valid,
    output reg  [7:0]         uart_data,
    output reg                exit_valid,
    output reg  [31:0]        exit_code,
    output wire               trap
);

    localparam [31:0] UART_ADDR  = 32'h1000_0000;
    localparam [31:0] TIMER_ADDR = 32'h1000_0004;
    localparam [31:0] EXIT_ADDR  = 32'h1000_0008;
    localparam [31:0] WL_ADDR    = 32'h1000_000c;

    wire        mem_valid, mem_instr;
    reg         mem_ready;
    wire [31:0] mem_addr, mem_wdata;
    wire [3:0]  mem_wstrb;
    reg  [31:0] mem_rdata;
    reg  [31:0] timer_q, period_q;
    reg         tick_q;

    reg [31:0] ram [0:(1 << MEM_AW) - 1];
    reg [1023:0] fw;
    reg [31:0]   workload;  // +workload=N, read at WL_ADDR
    integer i;
    initial begin
        workload = 32'd0;
        if (!$value$plusargs("workload=%d", workload))
            workload = 32'd0;
        for (i = 0; i < (1 << MEM_AW); i = i + 1)
            ram[i] = 32'd0;
        if ($value$plusargs("firmware=%s", fw))
            $readmemh(fw, ram);
        else
            $display("trc_soc: no +firmware=FILE.hex given, RAM is empty");
    end

    wire        in_ram = mem_addr[31:MEM_AW+2] == {(30 - MEM_AW){1'b0}};
    wire [MEM_AW-1:0] wa = mem_addr[MEM_AW+1:2];

    always @(posedge clk) begin
        mem_ready <= 1'b0;
        uart_valid <= 1'b0;
        exit_valid <= 1'b0;
        tick_q <= 1'b0;
        if (period_q != 32'd0) begin
            if (timer_q == 32'd0) begin
                timer_q <= period_q - 1'b1;
                tick_q <= 1'b1;
            end else begin
                timer_q <= timer_q - 1'b1;
            end
        end
        if (mem_valid && !mem_ready) begin
            mem_ready <= 1'b1;
            mem_rdata <= in_ram ? ram[wa] : mem_addr == WL_ADDR ? workload : 32'd0;
            if (in_ram) begin
                if (mem_wstrb[0]) ram[wa][7:0] <= mem_wdata[7:0];
                if (mem_wstrb[1]) ram[wa][15:8] <= mem_wdata[15:8];
                if (mem_wstrb[2]) ram[wa][23:16] <= mem_wdata[23:16];
                if (mem_wstrb[3]) ram[wa][31:24] <= mem_wdata[31:24];
            end else if (mem_wstrb != 4'd0) begin
                // the stimulus window (STIM_BASE) is write-only: trc_rvfi
                // sees those stores on RVFI; other addresses are ignored
                if (mem_addr == UART_ADDR) begin
                    uart_valid <= 1'b1;
                    uart_data <= mem_wdata[7:0];
                end
                if (mem_addr == TIMER_ADDR) begin
                    period_q <= mem_wdata;
                    timer_q <= mem_wdata;
                end
                if (mem_addr == EXIT_ADDR) begin
                    exit_valid <= 1'b1;
                    exit_code <= mem_wdata;
                end
            end
        end
        if (rst) begin
            mem_ready <= 1'b0;
            period_q <= 32'd0;
            timer_q <= 32'd0;
        end
    end

    trc_soc_cpu #(
        .MODE(MODE), .SK(SK), .SD(SD), .LEAN(LEAN), .OUT_W(OUT_W), .FIFO_AW(FIFO_AW),
        .DT_W(DT_W), .DROP_W(DROP_W), .SD_AW(SD_AW)
    ) u_sys (
        .clk(clk), .rst(rst),
        .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
        .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb),
        .mem_rdata(mem_rdata), .irq({28'd0, tick_q, 3'd0}), .trap(trap),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .trace_flush(trace_flush),
        .trace_drop(trace_drop), .trace_gap(trace_gap),
        .ev_valid(ev_valid), .ev_data(ev_data), .retire(retire)
    );

    wire unused_instr = &{1'b0, mem_instr};

endmodule

`resetall
