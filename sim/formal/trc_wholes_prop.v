// trc_wholes_prop: formal harness for two time-stampers whose whole-record
// counts live in trc_wholes (trc_tstamp SHARED 1, as trc_mpcore has them;
// yosys read_verilog -formal, yosys-smtbmc), at widths small enough that
// whole records pile up and the counts saturate within a short BMC (NT 3,
// DT_W 5: 2 whole-record bits; VAL_W 3, DROP_W 5). The environment drives
// each CPU's events (their kind and info fixed: they only pass through),
// drops, flushes and FIFO room freely. Checked against
// ghost counts that know nothing of where the counts are kept, per CPU:
//   - ticks: a record other than a TIME_EXT carries as its delta every tick
//     since reset not yet carried by the CPU's records before it, and a
//     TIME_EXT (delta MAXD) goes only when at least MAXD such ticks wait;
//   - drops: a LOST carries every drop not yet carried, or VMAX when more
//     wait;
// until the count saturates. The modules' own checks (-DTRC_ASSERT) are
// proven too. Covers (-DCOVER): two whole TIME_EXT and two whole LOST
// records wait on one CPU, and a CPU writes the last whole TIME_EXT, and
// the last whole LOST record, of a count.
// Parameters: as trc_tstamp's.
`default_nettype none
`include "trc_format.vh"

module trc_wholes_prop #(
    parameter NT     = 3,
    parameter TYPE_W = 3,
    parameter VAL_W  = 3,
    parameter INFO_W = 6,
    parameter DT_W   = 5,
    parameter DROP_W = 5
) (
    input wire              clk,
    input wire              rst,
    input wire [1:0]        ev_valid,
    input wire [1:0]        flush,
    input wire [1:0]        ev_lost,
    input wire [1:0]        m_axis_tready
);
    localparam [NT-1:0] MAXD = {NT{1'b1}};
    localparam [VAL_W-1:0] VMAX = {VAL_W{1'b1}};
    localparam [TYPE_W-1:0] T_EXT  = `TRC_T_TIME_EXT(TYPE_W);
    localparam [TYPE_W-1:0] T_LOST = `TRC_T_LOST(TYPE_W);
    // the largest counts: 2^XW - 1 whole records and a full rest
    localparam integer TMAX = (1 << (DT_W - NT)) * ((1 << NT) - 1);
    localparam integer LMAX = (1 << (DROP_W - VAL_W)) * ((1 << VAL_W) - 1);
    localparam GW = 8;    // ghost count bits (above TMAX, LMAX + one step)

    reg init_q = 1'b1;
    always @(posedge clk) init_q <= 1'b0;
    always @* if (init_q) assume (rst);

    wire [1:0] wx_inc, wx_dec, wl_inc, wl_dec, wx_slot, wl_slot;
    wire       w_one;
    trc_wholes #(.NCPU(2), .NT(NT), .VAL_W(VAL_W), .DT_W(DT_W), .DROP_W(DROP_W)) dut_w (
        .clk(clk), .rst(rst),
        .wx_inc(wx_inc), .wx_dec(wx_dec), .wl_inc(wl_inc), .wl_dec(wl_dec),
        .wx_slot(wx_slot), .wl_slot(wl_slot), .w_one(w_one)
    );

    genvar g;
    generate
        for (g = 0; g < 2; g = g + 1) begin : g_cpu
            wire              busy, due, drop, rec_valid, rec_tag;
            wire [NT+INFO_W:0] part, rec;
            trc_tstamp #(
                .NT(NT), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .INFO_W(INFO_W),
                .DT_W(DT_W), .DROP_W(DROP_W), .FILL(1), .SHARED(1)
            ) dut (
                .clk(clk), .rst(rst),
                .ev_valid(ev_valid[g]), .ev_os(1'b0), .ev_info({INFO_W{1'b0}}),
                .flush(flush[g]), .ev_first(1'b0), .ev_lost(ev_lost[g]),
                .busy(busy), .due(due), .drop(drop),
                .wx_slot(wx_slot[g]), .wl_slot(wl_slot[g]), .w_one(w_one),
                .wx_inc(wx_inc[g]), .wx_dec(wx_dec[g]), .wl_inc(wl_inc[g]), .wl_dec(wl_dec[g]),
                .m_axis_tdata(part), .m_axis_tvalid(rec_valid), .m_axis_tuser(rec_tag),
                .m_axis_tready(m_axis_tready[g]),
                .f_dx(), .f_dr(), .f_lx(), .f_lr()
            );
            trc_tstamp_fill #(.NT(NT), .VAL_W(VAL_W), .INFO_W(INFO_W)) fill (
                .tag(rec_tag), .s_rec(part), .m_rec(rec)
            );

            wire [NT-1:0]     r_delta = rec[INFO_W +: NT];
            wire [TYPE_W-1:0] r_type  = rec[VAL_W +: TYPE_W];
            wire [VAL_W-1:0]  r_val   = rec[VAL_W-1:0];
            wire              r_ext   = rec_valid && rec_tag && r_type == T_EXT;
            wire              r_lost  = rec_valid && rec_tag && r_type == T_LOST;

            // ghost counts: ticks (PRESCALE 1: every clock) and drops not
            // yet carried by a record, and whether each passed its largest
            reg  [GW-1:0] t_q, l_q;
            reg           tsat_q, lsat_q;
            wire [GW-1:0] t_nx = t_q + 1'b1 - (rec_valid ? r_delta : {NT{1'b0}});
            wire [GW-1:0] l_nx = l_q + drop - (r_lost ? r_val : {VAL_W{1'b0}});
            always @(posedge clk) begin
                if (rst) begin
                    t_q    <= {GW{1'b0}};
                    l_q    <= {GW{1'b0}};
                    tsat_q <= 1'b0;
                    lsat_q <= 1'b0;
                end else begin
                    t_q    <= t_nx;
                    l_q    <= l_nx;
                    tsat_q <= tsat_q || t_nx > TMAX;
                    lsat_q <= lsat_q || l_nx > LMAX;
                end
            end
            always @* begin
                if (!rst && !init_q) begin
                    assert (!rec_valid || m_axis_tready[g]);
                    if (!tsat_q && rec_valid && !r_ext)
                        assert (r_delta == t_q);
                    if (!tsat_q && r_ext)
                        assert (r_delta == MAXD && t_q >= MAXD);
                    if (!lsat_q && r_lost)
                        assert (r_val == (l_q > VMAX ? VMAX : l_q));
                end
            end
`ifdef COVER
            reg two_x_q, two_l_q;
            always @(posedge clk) begin
                two_x_q <= !rst && (two_x_q || t_q >= 3 * MAXD);
                two_l_q <= !rst && (two_l_q || l_q >= 3 * VMAX);
            end
            if (g == 0) begin : g_cov
                always @* begin
                    cover (!rst && two_x_q && two_l_q);
                    // the last whole record of a count written (w_one)
                    cover (!rst && r_ext && t_q > MAXD && t_q < 2 * MAXD);
                    cover (!rst && r_lost && l_q > VMAX && l_q < 2 * VMAX);
                end
            end
`endif
        end
    endgenerate

endmodule

`resetall
