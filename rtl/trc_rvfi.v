// trc_rvfi: RISC-V retire stream (RVFI) -> trc events. Calls (jal/jalr with
// rd = x1/x5, c.jal, c.jalr) become function entries whose id is taken from
// the target address; returns (jalr x0 via x1/x5, c.jr x1/x5) become the exit
// of the function on a shadow call stack; interrupt entry, mret/retirq, traps
// and stores to a stimulus window become OS info records. The event port
// carries trc_core's event word. Address to id, the reserved id and types,
// overflow, longjmp and tail calls: docs/soc.md.
// Parameters:
//   FID_W, TYPE_W, VAL_W - the trace format's widths (as trc_core)
//   INFO_W   - derived, do not set: max(1+FID_W, TYPE_W+VAL_W)
//   ID_SHIFT - id = target address bits [ID_SHIFT+FID_W-1:ID_SHIFT]; 2 for
//              RV32I code, 1 when functions may start on 2-byte boundaries
//   RVC      - 1: decode the compressed forms (c.jal, c.jalr, c.jr)
//   SD_AW    - shadow call stack holds 2^SD_AW entries; deeper calls drop
//              the oldest, whose exits later carry the reserved id
//   SP_W     - low bits of sp kept per stack entry for the unwind compare
//   SP_UNWIND - 1: a return whose sp is above an entry's call sp also exits
//              that entry (longjmp), one exit record per frame
//   QAW      - action queue address bits (2^QAW retired events wait while
//              the port is stalled or a return unwinds)
//   STIM_BASE - byte address of stimulus port 0; port P (4-byte words,
//              P < 2^TYPE_W-8) writes OS info type P with the stored value
`default_nettype none
`include "trc_format.vh"

module trc_rvfi #(
    parameter        FID_W     = 15,
    parameter        TYPE_W    = 7,
    parameter        VAL_W     = 16,
    parameter        ID_SHIFT  = 2,
    parameter        RVC       = 0,
    parameter        SD_AW     = 4,
    parameter        SP_W      = 16,
    parameter        SP_UNWIND = 1,
    parameter        QAW       = 2,
    parameter [31:0] STIM_BASE = 32'h1100_0000,
    parameter        INFO_W    = `TRC_INFO_W(FID_W, TYPE_W, VAL_W)
) (
    input  wire              clk,
    input  wire              rst,
    // ---- RVFI retire stream (one instruction per rvfi_valid)
    input  wire              rvfi_valid,
    input  wire [31:0]       rvfi_insn,
    input  wire              rvfi_trap,
    input  wire              rvfi_intr,
    input  wire [31:0]       rvfi_pc_rdata,
    input  wire [31:0]       rvfi_pc_wdata,
    input  wire [4:0]        rvfi_rd_addr,
    input  wire [31:0]       rvfi_rd_wdata,
    input  wire [31:0]       rvfi_mem_addr,
    input  wire [3:0]        rvfi_mem_wmask,
    input  wire [31:0]       rvfi_mem_wdata,
    input  wire [VAL_W-1:0]  irq_cause,  // value of the IRQ record (PicoRV32: eoi)
    // ---- events: {os, info} as trc_core's ev_os, ev_info
    output wire [INFO_W:0]   m_axis_tdata,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              gap          // pulse: a retired event was not queued
);

    localparam [TYPE_W-1:0] T_IRQ  = {TYPE_W{1'b1}} - {{(TYPE_W-3){1'b0}}, 3'd4};
    localparam [TYPE_W-1:0] T_IRET = {TYPE_W{1'b1}} - {{(TYPE_W-3){1'b0}}, 3'd5};
    localparam [TYPE_W-1:0] T_TRAP = {TYPE_W{1'b1}} - {{(TYPE_W-3){1'b0}}, 3'd6};
    localparam [TYPE_W-1:0] T_GAP  = {TYPE_W{1'b1}} - {{(TYPE_W-3){1'b0}}, 3'd7};
    localparam [FID_W-1:0]  FID_UNKNOWN = {FID_W{1'b1}};
    localparam AW_A  = FID_W > TYPE_W ? FID_W : TYPE_W;
    localparam AW_V  = SP_W > VAL_W ? SP_W : VAL_W;
    localparam ACT_W = 2 + AW_A + AW_V;
    localparam SDN   = 1 << SD_AW;
    localparam [1:0] K_CALL = 2'd0, K_RET = 2'd1, K_OS = 2'd2;

    generate
        `TRC_PARAM_CHECK(FID_W >= 2 && FID_W <= 31, g_bad_fid_w, trc_bad_param_FID_W,
                         "trc_rvfi: FID_W must be 2..31")
        `TRC_PARAM_CHECK(TYPE_W >= 4 && TYPE_W <= 16, g_bad_type_w, trc_bad_param_TYPE_W,
                         "trc_rvfi: TYPE_W must be 4..16 (the top 8 types are taken)")
        `TRC_PARAM_CHECK(VAL_W >= 1 && VAL_W <= 32, g_bad_val_w, trc_bad_param_VAL_W,
                         "trc_rvfi: VAL_W must be 1..32")
        `TRC_PARAM_CHECK(ID_SHIFT >= 1 && ID_SHIFT <= 2 && ID_SHIFT + FID_W <= 32, g_bad_shift,
                         trc_bad_param_ID_SHIFT,
                         "trc_rvfi: ID_SHIFT must be 1 or 2, ID_SHIFT+FID_W <= 32")
        `TRC_PARAM_CHECK(SD_AW >= 1 && SD_AW <= 8, g_bad_sd_aw, trc_bad_param_SD_AW,
                         "trc_rvfi: SD_AW must be 1..8")
        `TRC_PARAM_CHECK(SP_W >= 4 && SP_W <= 32, g_bad_sp_w, trc_bad_param_SP_W,
                         "trc_rvfi: SP_W must be 4..32")
        `TRC_PARAM_CHECK(QAW >= 1 && QAW <= 8, g_bad_qaw, trc_bad_param_QAW,
                         "trc_rvfi: QAW must be 1..8")
    endgenerate

    // ------------------------------------------------------------ decode
    // One action per retired instruction at most: a trap, else the
    // interrupt entry (the handler's first instruction is not decoded
    // further), else a call, return, mret/retirq or stimulus store.
    wire [31:0] in = rvfi_insn;
    wire        c16 = RVC != 0 && in[1:0] != 2'b11;
    wire [4:0]  rd = in[11:7], rs1 = in[19:15], crs1 = in[11:7];
    wire        link_rd  = rd == 5'd1 || rd == 5'd5;
    wire        link_rs1 = rs1 == 5'd1 || rs1 == 5'd5;
    wire        link_c   = crs1 == 5'd1 || crs1 == 5'd5;
    wire        jal  = !c16 && in[6:0] == 7'b1101111;
    wire        jalr = !c16 && in[6:0] == 7'b1100111 && in[14:12] == 3'b000;
    wire        c_jal  = c16 && in[15:13] == 3'b001 && in[1:0] == 2'b01;
    wire        c_jr   = c16 && in[15:12] == 4'b1000 && in[6:2] == 5'd0 && in[1:0] == 2'b10 &&
                         crs1 != 5'd0;
    wire        c_jalr = c16 && in[15:12] == 4'b1001 && in[6:2] == 5'd0 && in[1:0] == 2'b10 &&
                         crs1 != 5'd0;
    wire        is_call = ((jal || jalr) && link_rd) || c_jal || c_jalr;
    wire        is_ret  = (jalr && rd == 5'd0 && link_rs1) || (c_jr && link_c);
    wire        is_iret = !c16 && (in == 32'h3020_0073 ||                  // mret
                          (in[6:0] == 7'b0001011 && in[31:25] == 7'b0000010)); // retirq
    wire [31:0] stim_off = rvfi_mem_addr - STIM_BASE;
    wire [31:0] stim_port = stim_off >> 2;
    wire        is_stim = rvfi_mem_wmask != 4'd0 && stim_off[1:0] == 2'd0 &&
                          stim_port < ((32'd1 << TYPE_W) - 32'd8);

    reg  [SP_W-1:0]  sp_q;   // the retired value of x2, low bits
    reg  [1:0]       act_k;
    reg  [AW_A-1:0]  act_a;
    reg  [AW_V-1:0]  act_x;
    reg              act_v;
    wire [ACT_W-1:0] act = {act_k, act_a, act_x};
    always @* begin
        act_k = K_OS;
        act_a = {AW_A{1'b0}};
        act_x = {AW_V{1'b0}};
        act_v = rvfi_valid;
        if (rvfi_trap) begin
            act_a[TYPE_W-1:0] = T_TRAP;
            act_x[VAL_W-1:0] = rvfi_pc_rdata[VAL_W-1:0];
        end else if (rvfi_intr) begin
            act_a[TYPE_W-1:0] = T_IRQ;
            act_x[VAL_W-1:0] = irq_cause;
        end else if (is_call) begin
            act_k = K_CALL;
            act_a[FID_W-1:0] = rvfi_pc_wdata[ID_SHIFT+FID_W-1:ID_SHIFT];
            act_x[SP_W-1:0] = sp_q;
        end else if (is_ret) begin
            act_k = K_RET;
            act_x[SP_W-1:0] = sp_q;
        end else if (is_iret) begin
            act_a[TYPE_W-1:0] = T_IRET;
        end else if (is_stim) begin
            act_a[TYPE_W-1:0] = stim_port[TYPE_W-1:0];
            act_x[VAL_W-1:0] = rvfi_mem_wdata[VAL_W-1:0];
        end else begin
            act_v = 1'b0;
        end
    end

    always @(posedge clk) begin
        if (rvfi_valid && rvfi_rd_addr == 5'd2)
            sp_q <= rvfi_rd_wdata[SP_W-1:0];
        if (rst)
            sp_q <= {SP_W{1'b0}};
    end

    // ------------------------------------------------------------ queue
    // While a gap is pending, nothing is queued: the GAP record then comes
    // exactly where the events it counts were lost.
    reg  [VAL_W-1:0] gap_q, gap_d;
    wire             q_ready, q_valid, unused_q_afull;
    wire [ACT_W-1:0] q_act;
    reg              q_take;
    wire             q_in = act_v && q_ready && gap_q == {VAL_W{1'b0}};
    wire             lose = act_v && !q_in;
    assign gap = lose;

    trc_fifo #(.W(ACT_W), .AW(QAW)) u_queue (
        .clk(clk), .rst(rst),
        .s_axis_tdata(act), .s_axis_tvalid(q_in), .s_axis_tready(q_ready),
        .s_afull(unused_q_afull),
        .m_axis_tdata(q_act), .m_axis_tvalid(q_valid), .m_axis_tready(q_take)
    );

    // ------------------------------------------------------------ execute
    // Shadow stack: a circular buffer of {id, sp at the call}; c_q entries
    // held, the oldest overwritten when full.
    reg [FID_W+SP_W-1:0] stk [0:SDN-1];
    reg [SD_AW-1:0]      t_q, t_d;          // top index
    reg [SD_AW:0]        c_q, c_d;          // entries held
    reg                  uw_q, uw_d;        // a return is unwinding
    reg [SP_W-1:0]       uw_sp_q, uw_sp_d;
    reg [INFO_W:0]       out_q, out_d;
    reg                  out_v_q, out_v_d;
    reg                  push;
    reg [FID_W+SP_W-1:0] push_e;

    wire [1:0]       q_k  = q_act[ACT_W-1:ACT_W-2];
    wire [AW_A-1:0]  q_a  = q_act[AW_A+AW_V-1:AW_V];
    wire [AW_V-1:0]  q_v  = q_act[AW_V-1:0];
    wire [FID_W-1:0] top_id = stk[t_q][FID_W+SP_W-1:SP_W];
    wire [SP_W-1:0]  top_sp = stk[t_q][SP_W-1:0];
    wire             out_free = !out_v_q || m_axis_tready;

    assign m_axis_tdata  = out_q;
    assign m_axis_tvalid = out_v_q;

    // exit record of an id
    function [INFO_W:0] ev_fn(input ex, input [FID_W-1:0] id);
        begin
            ev_fn = {(INFO_W + 1){1'b0}};
            ev_fn[FID_W:0] = {ex, id};
        end
    endfunction
    function [INFO_W:0] ev_os(input [TYPE_W-1:0] ty, input [VAL_W-1:0] v);
        begin
            ev_os = {(INFO_W + 1){1'b0}};
            ev_os[INFO_W] = 1'b1;
            ev_os[TYPE_W+VAL_W-1:0] = {ty, v};
        end
    endfunction

    // sp a is below sp b (the stack grows down): SP_W-bit signed difference
    function below(input [SP_W-1:0] a, input [SP_W-1:0] b);
        reg [SP_W-1:0] d;
        begin
            d = a - b;
            below = d[SP_W-1];
        end
    endfunction

    always @* begin
        t_d = t_q;
        c_d = c_q;
        uw_d = uw_q;
        uw_sp_d = uw_sp_q;
        out_d = out_q;
        out_v_d = out_v_q && !m_axis_tready;
        gap_d = gap_q;
        q_take = 1'b0;
        push = 1'b0;
        push_e = {q_a[FID_W-1:0], q_v[SP_W-1:0]};
        if (out_free) begin
            if (uw_q || (q_valid && q_k == K_RET)) begin
                // a return: exit of the top entry; go on while the entry was
                // called from below the return's sp (frames left by longjmp)
                q_take = !uw_q;
                out_v_d = 1'b1;
                if (c_q != {(SD_AW + 1){1'b0}}) begin
                    out_d = ev_fn(1'b1, top_id);
                    t_d = t_q - 1'b1;
                    c_d = c_q - 1'b1;
                    uw_d = SP_UNWIND != 0 && c_q != 1 &&
                           below(top_sp, uw_q ? uw_sp_q : q_v[SP_W-1:0]);
                    uw_sp_d = uw_q ? uw_sp_q : q_v[SP_W-1:0];
                end else begin
                    out_d = ev_fn(1'b1, FID_UNKNOWN);
                    uw_d = 1'b0;
                end
            end else if (q_valid) begin
                q_take = 1'b1;
                out_v_d = 1'b1;
                if (q_k == K_CALL) begin
                    out_d = ev_fn(1'b0, q_a[FID_W-1:0]);
                    push = 1'b1;
                    t_d = t_q + 1'b1;
                    if (c_q != SDN[SD_AW:0])
                        c_d = c_q + 1'b1;
                end else begin
                    out_d = ev_os(q_a[TYPE_W-1:0], q_v[VAL_W-1:0]);
                end
            end else if (gap_q != {VAL_W{1'b0}}) begin
                // everything queued before the loss is out: the GAP record,
                // and the shadow stack is no longer known
                out_v_d = 1'b1;
                out_d = ev_os(T_GAP, gap_q);
                gap_d = {VAL_W{1'b0}};
                c_d = {(SD_AW + 1){1'b0}};
            end
        end
        if (lose && gap_d != {VAL_W{1'b1}})
            gap_d = gap_d + 1'b1;
    end

    always @(posedge clk) begin
        t_q <= t_d;
        c_q <= c_d;
        uw_q <= uw_d;
        uw_sp_q <= uw_sp_d;
        out_q <= out_d;
        out_v_q <= out_v_d;
        gap_q <= gap_d;
        if (push)
            stk[t_d] <= push_e;
        if (rst) begin
            t_q <= {SD_AW{1'b0}};
            c_q <= {(SD_AW + 1){1'b0}};
            uw_q <= 1'b0;
            out_v_q <= 1'b0;
            gap_q <= {VAL_W{1'b0}};
        end
    end

`ifdef TRC_ASSERT
    reg [INFO_W:0] a_out_q;
    reg            a_stall_q;
    always @(posedge clk) begin
        a_out_q <= out_q;
        a_stall_q <= !rst && out_v_q && !m_axis_tready;
        if (!rst && a_stall_q)
            assert (out_v_q && out_q == a_out_q)
            else $error("%m: event changed while stalled");
        if (!rst)
            assert (c_q <= SDN)
            else $error("%m: shadow stack count above its depth");
    end
`endif

    wire unused_ok = &{1'b0, rvfi_pc_wdata, rvfi_rd_wdata, rvfi_mem_wdata, rvfi_pc_rdata,
                       stim_off, stim_port, q_a, q_v, rs1, in};

endmodule

`resetall
