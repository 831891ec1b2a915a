// trc_mpsoc: simulation system of NCPU PicoRV32s traced into one stream. Each
// CPU has its own RAM with the firmware image (+firmware=FILE.hex), UART,
// timer, exit and workload registers and its trc_rvfi (trc_soc_cpu with
// TRACE = 2); all of them share a region with a hardware lock and shared
// words, which they contend for through a round-robin arbiter; their events
// go to trc_mpcore. Memory map: docs/soc.md ("Several CPUs").
// Parameters:
//   NCPU    - CPUs, 2..8
//   MEM_AW  - each RAM's address bits in words (2^MEM_AW x 4 bytes)
//   OUT_W, FIFO_AW, BURST, SD_AW - the tracer's (trc_mpcore) and adapters'
//   INFO_W  - derived, do not set (the paper's widths: 23)
`default_nettype none

module trc_mpsoc #(
    parameter NCPU    = 2,
    parameter MEM_AW  = 14,
    parameter OUT_W   = 64,
    parameter FIFO_AW = 4,
    parameter BURST   = 16,
    parameter SD_AW   = 5,
    parameter INFO_W  = 23
) (
    input  wire                  clk,
    input  wire                  rst,
    // ---- trace out
    output wire [OUT_W-1:0]      m_axis_tdata,
    output wire [OUT_W/8-1:0]    m_axis_tkeep,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    input  wire                  trace_flush,
    input  wire                  trace_mark,     // the marker pin
    input  wire [15:0]           trace_mark_value,
    output wire [NCPU-1:0]       trace_drop,
    output wire [NCPU-1:0]       trace_gap,
    output wire [NCPU-1:0]       tracing,
    // ---- observation: each adapter's events, the coder's input
    output wire [NCPU-1:0]       ev_valid,
    output wire [NCPU*(INFO_W+1)-1:0] ev_data,
    output wire                  tap_valid,
    output wire [7:0]            tap_cpu,
    output wire [47-1:0]         tap_rec,
    output wire [NCPU-1:0]       bc_put,         // a marker or control record goes
    output wire [INFO_W-1:0]     bc_info,        // ... to these CPUs now
    // ---- simulation devices, per CPU
    output reg  [NCPU-1:0]       uart_valid,
    output reg  [NCPU*8-1:0]     uart_data,
    output reg  [NCPU-1:0]       exit_valid,
    output reg  [NCPU*32-1:0]    exit_code,
    output wire [NCPU-1:0]       trap
);

    localparam [31:0] UART_ADDR  = 32'h1000_0000;
    localparam [31:0] TIMER_ADDR = 32'h1000_0004;
    localparam [31:0] EXIT_ADDR  = 32'h1000_0008;
    localparam [31:0] WL_ADDR    = 32'h1000_000c;
    localparam [31:0] ID_ADDR    = 32'h1000_0010;
    localparam [31:0] NCPU_ADDR  = 32'h1000_0014;
    localparam [31:0] LOCK_ADDR  = 32'h2000_0000;   // shared region base
    localparam        SH_AW      = 6;               // 64 shared words after the lock

    reg [31:0] workload;     // +workload=N: every CPU runs N; 0: CPU k runs k % 3 + 1
    initial begin
        if (!$value$plusargs("workload=%d", workload))
            workload = 32'd0;
    end

    // ---- the shared region: a lock (a read takes it and returns 0, or
    // returns 1 when another CPU holds it; any write frees it) and 64
    // words. One access per clock; the CPUs that ask in the same clock are
    // served round robin.
    wire [NCPU-1:0]     sh_req;
    reg  [NCPU-1:0]     sh_grant;
    reg  [31:0]         sh_last_q;     // the CPU served last
    reg                 lock_q;
    reg  [31:0]         shared [0:(1 << SH_AW) - 1];
    integer i, k;
    always @* begin
        sh_grant = {NCPU{1'b0}};
        for (k = 2 * NCPU - 1; k >= 1; k = k - 1)
            if (sh_req[(sh_last_q + k) % NCPU])
                sh_grant = {{(NCPU-1){1'b0}}, 1'b1} << ((sh_last_q + k) % NCPU);
    end

    wire [NCPU-1:0] mem_valid, mem_instr;
    wire [NCPU*32-1:0] mem_addr, mem_wdata;
    wire [NCPU*4-1:0]  mem_wstrb;
    reg  [NCPU-1:0]    mem_ready;
    reg  [NCPU*32-1:0] mem_rdata;
    wire [NCPU-1:0]    ev_v;
    wire [NCPU*(INFO_W+1)-1:0] ev;

    genvar g;
    generate
        for (g = 0; g < NCPU; g = g + 1) begin : g_cpu
            reg  [31:0] ram [0:(1 << MEM_AW) - 1];
            reg  [31:0] timer_q, period_q;
            reg         tick_q;
            wire [31:0] a  = mem_addr[g*32 +: 32];
            wire [31:0] wd = mem_wdata[g*32 +: 32];
            wire [3:0]  ws = mem_wstrb[g*4 +: 4];
            wire        in_ram = a[31:MEM_AW+2] == {(30 - MEM_AW){1'b0}};
            wire [MEM_AW-1:0] wa = a[MEM_AW+1:2];
            wire        in_sh  = a[31:28] == LOCK_ADDR[31:28];
            assign sh_req[g] = mem_valid[g] && !mem_ready[g] && in_sh;
            reg [1023:0] fw;
            initial begin
                for (i = 0; i < (1 << MEM_AW); i = i + 1)
                    ram[i] = 32'd0;
                if ($value$plusargs("firmware=%s", fw))
                    $readmemh(fw, ram);
                else if (g == 0)
                    $display("trc_mpsoc: no +firmware=FILE.hex given, RAM is empty");
            end
            always @(posedge clk) begin
                mem_ready[g] <= 1'b0;
                uart_valid[g] <= 1'b0;
                exit_valid[g] <= 1'b0;
                tick_q <= 1'b0;
                if (period_q != 32'd0) begin
                    if (timer_q == 32'd0) begin
                        timer_q <= period_q - 1'b1;
                        tick_q <= 1'b1;
                    end else begin
                        timer_q <= timer_q - 1'b1;
                    end
                end
                if (mem_valid[g] && !mem_ready[g] && (!in_sh || sh_grant[g])) begin
                    mem_ready[g] <= 1'b1;
                    mem_rdata[g*32 +: 32] <= 32'd0;
                    if (in_ram) begin
                        mem_rdata[g*32 +: 32] <= ram[wa];
                        if (ws[0]) ram[wa][7:0] <= wd[7:0];
                        if (ws[1]) ram[wa][15:8] <= wd[15:8];
                        if (ws[2]) ram[wa][23:16] <= wd[23:16];
                        if (ws[3]) ram[wa][31:24] <= wd[31:24];
                    end else if (in_sh) begin
                        // shared: the lock, or a shared word (written below)
                        mem_rdata[g*32 +: 32] <= a[SH_AW+2+8-1:2] == 0 ? {31'd0, lock_q}
                                                 : shared[a[SH_AW+1:2]];
                    end else if (ws == 4'd0) begin
                        mem_rdata[g*32 +: 32] <= a == WL_ADDR ?
                                                 (workload != 0 ? workload : g % 3 + 1) :
                                                 a == ID_ADDR ? g : a == NCPU_ADDR ? NCPU : 32'd0;
                    end else begin
                        // trc_rvfi sees the stimulus stores (STIM_BASE) on RVFI
                        if (a == UART_ADDR) begin
                            uart_valid[g] <= 1'b1;
                            uart_data[g*8 +: 8] <= wd[7:0];
                        end
                        if (a == TIMER_ADDR) begin
                            period_q <= wd;
                            timer_q <= wd;
                        end
                        if (a == EXIT_ADDR) begin
                            exit_valid[g] <= 1'b1;
                            exit_code[g*32 +: 32] <= wd;
                        end
                    end
                end
                if (rst) begin
                    mem_ready[g] <= 1'b0;
                    period_q <= 32'd0;
                    timer_q <= 32'd0;
                end
            end

            // the adapter alone (TRACE = 2): its stream outputs are 0
            wire [OUT_W-1:0]   unused_tdata;
            wire [OUT_W/8-1:0] unused_tkeep;
            wire               unused_tlast, unused_tvalid, unused_drop, unused_retire;
            trc_soc_cpu #(.TRACE(2), .OUT_W(OUT_W), .SD_AW(SD_AW)) u_sys (
                .clk(clk), .rst(rst),
                .mem_valid(mem_valid[g]), .mem_instr(mem_instr[g]), .mem_ready(mem_ready[g]),
                .mem_addr(mem_addr[g*32 +: 32]), .mem_wdata(mem_wdata[g*32 +: 32]),
                .mem_wstrb(mem_wstrb[g*4 +: 4]), .mem_rdata(mem_rdata[g*32 +: 32]),
                .irq({28'd0, tick_q, 3'd0}), .trap(trap[g]),
                .m_axis_tdata(unused_tdata), .m_axis_tkeep(unused_tkeep),
                .m_axis_tlast(unused_tlast), .m_axis_tvalid(unused_tvalid),
                .m_axis_tready(1'b1), .trace_flush(1'b0), .trace_drop(unused_drop),
                .trace_gap(trace_gap[g]),
                .ev_valid(ev_v[g]), .ev_data(ev[g*(INFO_W+1) +: INFO_W+1]),
                .retire(unused_retire)
            );
        end
    endgenerate

    // the shared access of the clock: the lock or a word
    always @(posedge clk) begin
        for (k = 0; k < NCPU; k = k + 1) begin
            if (sh_grant[k]) begin
                sh_last_q <= k;
                if (mem_addr[k*32+2 +: SH_AW+8] == 0) begin
                    if (mem_wstrb[k*4 +: 4] != 4'd0)
                        lock_q <= 1'b0;
                    else
                        lock_q <= 1'b1;     // taken (or still held)
                end else if (mem_wstrb[k*4 +: 4] != 4'd0) begin
                    shared[mem_addr[k*32+2 +: SH_AW]] <= mem_wdata[k*32 +: 32];
                end
            end
        end
        if (rst) begin
            sh_last_q <= 32'd0;
            lock_q <= 1'b0;
            for (i = 0; i < (1 << SH_AW); i = i + 1)
                shared[i] <= 32'd0;
        end
    end

    // ---- the tracer: every CPU's events, one stream
    wire [NCPU-1:0]        ev_os;
    wire [NCPU*INFO_W-1:0] ev_info;
    generate
        for (g = 0; g < NCPU; g = g + 1) begin : g_ev
            assign ev_os[g] = ev[g*(INFO_W+1) + INFO_W];
            assign ev_info[g*INFO_W +: INFO_W] = ev[g*(INFO_W+1) +: INFO_W];
        end
    endgenerate
    trc_mpcore #(
        .NCPU(NCPU), .OUT_W(OUT_W), .FIFO_AW(FIFO_AW), .BURST(BURST)
    ) u_trc (
        .clk(clk), .rst(rst),
        .ev_valid(ev_v), .ev_os(ev_os), .ev_info(ev_info), .flush(trace_flush),
        .drop(trace_drop), .mark(trace_mark), .mark_value(trace_mark_value),
        .start(1'b0), .stop(1'b0), .tracing(tracing),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );

    assign ev_valid  = ev_v;
    assign ev_data   = ev;
    // the coder's input: the record taken, made whole, and its CPU
    assign tap_valid = u_trc.u_enc.in_valid && u_trc.u_enc.in_ready;
    assign tap_cpu   = {{(8 - $clog2(NCPU)){1'b0}}, u_trc.u_enc.in_rec[47 +: $clog2(NCPU)]};
    assign tap_rec   = u_trc.u_enc.in_rec[46:0];
    assign bc_put    = u_trc.put;
    assign bc_info   = u_trc.b_info;

    wire unused_instr = &{1'b0, mem_instr};

endmodule

`resetall
