// trc_tstamp_prop: formal harness for trc_tstamp, its records made whole by
// trc_tstamp_fill (which leaves whole records as they are, FILL 0) (yosys read_verilog -formal, yosys-smtbmc), at widths
// small enough that both counts saturate within a short BMC (NT 2, DT_W 4:
// 2 whole-record bits; VAL_W 2, DROP_W 4). The environment drives events
// (of any type, the reserved ones too), drops, flushes and the FIFO's room
// freely; an ev_first event comes, as from trc_mpcore, only with room and no
// TIME_EXT waiting. Checked against ghost counts that know nothing of the
// module's form (whole records and a rest):
//   - ticks: the ticks since reset minus the deltas of every record written
//     equal the count the module holds, until that count saturates, and
//     then the count stays at its largest;
//   - drops: the events dropped (and ev_lost) minus the values of every LOST
//     the module wrote equal the count the module holds, until it saturates;
//   - a record is written only with room; its own TIME_EXT carries delta
//     MAXD, its TIME_EXT or END value 0; an event keeps its kind and info.
// The module's own checks (-DTRC_ASSERT) are proven too. Covers (-DCOVER):
// each count saturates, two whole TIME_EXT and two whole LOST records wait.
// Parameters: as trc_tstamp's.
`default_nettype none
`include "trc_format.vh"

module trc_tstamp_prop #(
    parameter NT       = 2,
    parameter TYPE_W   = 3,
    parameter VAL_W    = 2,
    parameter INFO_W   = 5,
    parameter PRESCALE = 1,
    parameter DT_W     = 4,
    parameter DROP_W   = 4,
    parameter FILL     = 1
) (
    input wire              clk,
    input wire              rst,
    input wire              ev_valid,
    input wire              ev_os,
    input wire [INFO_W-1:0] ev_info,
    input wire              flush,
    input wire              ev_first,
    input wire              ev_lost,
    input wire              m_axis_tready
);
    localparam XW = DT_W - NT;
    localparam LX = DROP_W - VAL_W;
    localparam [NT-1:0] MAXD = {NT{1'b1}};
    localparam [VAL_W-1:0] VMAX = {VAL_W{1'b1}};
    localparam [TYPE_W-1:0] T_EXT  = `TRC_T_TIME_EXT(TYPE_W);
    localparam [TYPE_W-1:0] T_LOST = `TRC_T_LOST(TYPE_W);
    // the largest counts: 2^XW - 1 whole records and a full rest
    localparam integer TMAX = (1 << XW) * ((1 << NT) - 1);
    localparam integer LMAX = (1 << LX) * ((1 << VAL_W) - 1);
    localparam GW = 12;   // ghost count bits (above TMAX, LMAX + one step)

    wire              busy, due, drop;
    wire [XW-1:0]     f_dx;
    wire [LX-1:0]     f_lx;
    wire [NT-1:0]     f_dr;
    wire [VAL_W-1:0]  f_lr;
    wire [NT+INFO_W:0] part, rec;
    wire              rec_valid, rec_tag;
    trc_tstamp #(
        .NT(NT), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .INFO_W(INFO_W),
        .PRESCALE(PRESCALE), .DT_W(DT_W), .DROP_W(DROP_W), .FILL(FILL)
    ) dut (
        .clk(clk), .rst(rst),
        .ev_valid(ev_valid), .ev_os(ev_os), .ev_info(ev_info), .flush(flush),
        .ev_first(ev_first), .ev_lost(ev_lost),
        .busy(busy), .due(due), .drop(drop),
        .wx_slot(1'b0), .wl_slot(1'b0), .w_one(1'b0),
        .wx_inc(), .wx_dec(), .wl_inc(), .wl_dec(),
        .m_axis_tdata(part), .m_axis_tvalid(rec_valid), .m_axis_tuser(rec_tag),
        .m_axis_tready(m_axis_tready),
        .f_dx(f_dx), .f_dr(f_dr), .f_lx(f_lx), .f_lr(f_lr)
    );
    trc_tstamp_fill #(.NT(NT), .VAL_W(VAL_W), .INFO_W(INFO_W)) fill (
        .tag(rec_tag), .s_rec(part), .m_rec(rec)
    );

    // reset in the first clock; an ev_first event as trc_mpcore makes it;
    // events of any type, the reserved ones too
    reg init_q = 1'b1;
    always @(posedge clk) init_q <= 1'b0;
    always @* begin
        if (init_q) assume (rst);
        assume (!ev_first || (ev_valid && m_axis_tready && !busy));
    end

    // the record written, and the module's counts in its own form
    wire              r_os    = rec[NT+INFO_W];
    wire [NT-1:0]     r_delta = rec[INFO_W +: NT];
    wire [TYPE_W-1:0] r_type  = rec[VAL_W +: TYPE_W];
    wire [VAL_W-1:0]  r_val   = rec[VAL_W-1:0];
    // (an event of a reserved type, as trc_evcdc's LOST words, is the
    // port's: the tag tells the module's own records)
    wire              r_lost  = rec_valid && rec_tag && r_type == T_LOST;
    wire [GW-1:0] t_held = {{(GW-XW){1'b0}}, f_dx} * MAXD + f_dr;
    wire [GW-1:0] l_held = {{(GW-LX){1'b0}}, f_lx} * VMAX + f_lr;

    // ghost counts: ticks (the prescaler's own, counted here) and drops not
    // yet written, and whether each ever passed its largest value
    reg  [GW-1:0] t_q, l_q;
    reg  [7:0]    pre_q;
    reg           tsat_q, lsat_q;
    wire          tick = pre_q == PRESCALE - 1;
    wire [GW-1:0] t_nx = t_q + tick - (rec_valid ? r_delta : 1'b0);
    wire [GW-1:0] l_nx = l_q + drop - (r_lost ? r_val : 1'b0);
    always @(posedge clk) begin
        if (rst) begin
            t_q    <= {GW{1'b0}};
            l_q    <= {GW{1'b0}};
            pre_q  <= 8'd0;
            tsat_q <= 1'b0;
            lsat_q <= 1'b0;
        end else begin
            t_q    <= t_nx;
            l_q    <= l_nx;
            pre_q  <= tick ? 8'd0 : pre_q + 1'b1;
            tsat_q <= tsat_q || t_nx > TMAX;
            lsat_q <= lsat_q || l_nx > LMAX;
        end
    end

    // a saturated count with no record written stays saturated
    reg t_stay_q, l_stay_q;
    always @(posedge clk) begin
        t_stay_q <= !rst && t_held == TMAX && !rec_valid;
        l_stay_q <= !rst && l_held == LMAX && !r_lost;
    end
    always @* begin
        if (!rst && !init_q) begin
            assert (!rec_valid || m_axis_tready);
            assert (!(rec_valid && rec_tag && r_type == T_EXT) || r_delta == MAXD);
            if (rec_valid && rec_tag)
                assert (r_os && (r_type == T_LOST || r_val == {VAL_W{1'b0}}));
            if (rec_valid && !rec_tag)
                assert (ev_valid && r_os == ev_os && rec[INFO_W-1:0] == ev_info);
            assert (t_held <= TMAX && l_held <= LMAX);
            if (!tsat_q) assert (t_held == t_q);
            if (!lsat_q) assert (l_held == l_q);
            if (t_stay_q) assert (t_held == TMAX);
            if (l_stay_q) assert (l_held == LMAX);
        end
    end

`ifdef COVER
    always @* begin
        if (!rst && !init_q) begin
            cover (t_held == TMAX);
            cover (l_held == LMAX);
            cover (f_dx == 2);
            cover (f_lx == 2);
        end
    end
`endif

endmodule

`resetall
