// trc_tstamp: time-stamper of trc_core. Turns untimed events (a valid strobe
// that cannot be stalled) into raw records with the ticks since the previous
// record; writes TIME_EXT while no event comes and the delta reaches 2^NT-1,
// LOST (the count of events dropped on a full FIFO) as soon as there is room
// (several LOST records when the count exceeds 2^VAL_W-1),
// and END on flush. Absolute time stays exact: waiting records keep their
// ticks in a DT_W-bit counter (docs/rtl.md). With FILL, the records it
// makes itself leave out their fixed fields, for trc_tstamp_fill to put
// back. For trc_mpcore's markers and control records: an event with
// ev_first goes before a LOST that waits (it is written whenever there is
// room and no TIME_EXT waits, which busy says), and ev_lost counts an event
// lost before this port (one whose clock a marker took) in the next LOST
// record, as a dropped one. With SHARED, the whole-record parts of both
// counts live in trc_wholes, shared by trc_mpcore's time-stampers: this one
// keeps the rests and the flags, asks for each step of a whole count, and
// writes a whole TIME_EXT or LOST record only in a clock in which the unit
// serves that count (wx_slot, wl_slot), when the unit says whether that was
// the last (w_one).
// Parameters:
//   NT, TYPE_W, VAL_W, INFO_W - format widths (INFO_W as in trc_enc)
//   PRESCALE                  - clock cycles per tick, >= 1
//   DT_W                      - ticks counter width, > NT
//   DROP_W                    - dropped events counter width, > VAL_W
//   FILL                      - 1: the records made here leave out their
//                               fixed fields, for trc_tstamp_fill (in
//                               trc_mpenc); 0: whole records (trc_core)
//   SHARED                    - 1: the whole counts are trc_wholes'
//                               (DT_W and DROP_W are its); 0: kept here
`default_nettype none
`include "trc_format.vh"

module trc_tstamp #(
    parameter NT       = 23,
    parameter TYPE_W   = 7,
    parameter VAL_W    = 16,
    parameter INFO_W   = 23,
    parameter PRESCALE = 1,
    parameter DT_W     = 48,
    parameter DROP_W   = 48,
    parameter FILL     = 0,
    parameter SHARED   = 0
) (
    input  wire              clk,
    input  wire              rst,
    // ---- events from the target
    input  wire              ev_valid,
    input  wire              ev_os,     // 0 function, 1 OS info
    input  wire [INFO_W-1:0] ev_info,   // same layout as trc_enc's info field
    input  wire              flush,     // write END (held until written)
    input  wire              ev_first,  // with ev_valid: before a waiting LOST
    input  wire              ev_lost,   // count one more lost event now
    output wire              busy,      // a TIME_EXT waits: no event is written
    output wire              due,       // one waits next clock unless a record goes now
    output reg               drop,      // an event was dropped this cycle
    // ---- the whole counts in trc_wholes (SHARED = 1; else tie wx_slot,
    // wl_slot and w_one to 0 and leave the outputs open)
    input  wire              wx_slot,   // the unit serves the whole TIME_EXT count now
    input  wire              wl_slot,   // ... the whole LOST count
    input  wire              w_one,     // the count served is 1
    output wire              wx_inc,    // whole TIME_EXT count plus one
    output wire              wx_dec,    // minus one (only with wx_slot)
    output wire              wl_inc,    // whole LOST count plus one
    output wire              wl_dec,    // minus one (only with wl_slot)
    // ---- records to the FIFO
    output reg  [NT+INFO_W:0] m_axis_tdata,
    output reg               m_axis_tvalid,
    output wire              m_axis_tuser,  // a record made here, not an event
    input  wire              m_axis_tready
`ifdef FORMAL
    ,
    // the counts, for sim/formal/trc_tstamp_prop.v
    output wire [DT_W-NT-1:0] f_dx,
    output wire [NT-1:0]     f_dr,
    output wire [DROP_W-VAL_W-1:0] f_lx,
    output wire [VAL_W-1:0]  f_lr
`endif
);

    localparam PW = PRESCALE > 1 ? $clog2(PRESCALE) : 1;
    localparam integer PRE_LAST_I = PRESCALE - 1;
    localparam [PW-1:0]     PRE_LAST = PRE_LAST_I[PW-1:0];
    localparam [NT-1:0]     MAXD     = {NT{1'b1}};
    localparam [TYPE_W-1:0] T_EXT    = `TRC_T_TIME_EXT(TYPE_W);
    localparam [TYPE_W-1:0] T_END    = `TRC_T_END(TYPE_W);
    localparam [TYPE_W-1:0] T_LOST   = `TRC_T_LOST(TYPE_W);
    // Dropped events are counted in LW bits; a LOST record carries at most
    // VMAX = 2^VAL_W-1.
    localparam LW = DROP_W;
    localparam XW = DT_W - NT;   // whole TIME_EXT records counter
    localparam LX = LW - VAL_W;  // whole LOST records counter
    localparam [VAL_W-1:0]  VMAX     = {VAL_W{1'b1}};

    // Both counts are kept as whole records still to write and a rest, so
    // that every flag is "part not zero" or "part at MAX" and every next
    // value one short adder from a register (a compare, a subtract and an
    // increment of 48 bits in a row were trc_core's critical path, 50-86
    // levels):
    //   ticks since the last record written = dx_q * MAXD + dr_q,
    //   events dropped, not yet in a LOST record = lx_q * VMAX + lr_q,
    // with the rest in 0..MAX, and >= 1 while the whole count is not 0: a
    // count that reaches MAX and grows becomes one whole record and rest 1.
    // A pending whole record is thus exactly "count > MAX".
    reg [PW-1:0]    pre_q, pre_d;
    reg [XW-1:0]    dx_q, dx_d;
    reg [NT-1:0]    dr_q, dr_d;
    reg [LX-1:0]    lx_q, lx_d;
    reg [VAL_W-1:0] lr_q, lr_d;
    reg             fl_q, fl_d;
    // The flags the record decision needs, as flops (a reduction of a
    // 16- to 32-bit register on the decision path cost 3 LUT levels and
    // long routes): each next value comes from register compares and the
    // decision itself.
    reg             ov_q, ov_d;     // dx_q != 0: ticks > MAXD
    reg             dm_q, dm_d;     // dr_q == MAXD
    reg             lb_q, lb_d;     // lx_q != 0: dropped > VMAX
    reg             ln_q, ln_d;     // lr_q != 0: dropped != 0

    wire tick     = pre_q == PRE_LAST;
    wire room     = m_axis_tready;
    wire dr_max   = dm_q;
    wire over     = ov_q;
    wire atmax    = !over && dr_max;        // ticks == MAXD
    // the largest count: it stays (SHARED: trc_wholes saturates the whole
    // count, and the rest goes on)
    wire dt_sat   = SHARED == 0 && &dx_q && dr_max;
    wire lr_max   = &lr_q;
    wire lost_big = lb_q;
    wire lost_nz  = ln_q;                   // (lr_q >= 1 while lx_q != 0)
    wire lost_sat = SHARED == 0 && &lx_q && lr_max;
    // what a LOST record carries: min(dropped, VMAX)
    wire [VAL_W-1:0] lost_out = lost_big ? VMAX : lr_q;
    // the rest after one more tick / drop (MAX + 1 = one whole record + 1:
    // the increment wraps to 0, and bit 0 is set, so no select per bit)
    wire [NT-1:0]    dr_step = (dr_q + 1'b1) | {{(NT-1){1'b0}}, dr_max};
    wire [VAL_W-1:0] lr_step = (lr_q + 1'b1) | {{(VAL_W-1){1'b0}}, lr_max};
    wire             dr_pre  = dr_q == MAXD - 1'b1;     // a step makes MAXD
    // A whole count only grows while the FIFO has no room for its record
    // and only shrinks by writing one, so its direction is known from
    // registers before the adder: one adder each, not an incrementer and a
    // decrementer and a select. (dx grows only when room is 0, as every
    // record waits for room; lx shrinks only in wr_lost, room && !over and
    // no ev_first event, and then an event is written or nothing is
    // dropped; ev_first comes from trc_mpcore's registers and inputs, not
    // from this module's adders.)
    wire             first   = ev_valid && ev_first;
    wire             lx_dn   = room && !over && !first;
    // (+1 or -1, written so that a 1-bit counter needs no empty replication)
    localparam [XW-1:0] X_ONE = 1;
    localparam [LX-1:0] L_ONE = 1;
    wire [XW-1:0]    dx_step = dx_q + ({XW{room}} | X_ONE);
    wire [LX-1:0]    lx_step = lx_q + ({LX{lx_dn}} | L_ONE);
    // (the last whole record: SHARED, trc_wholes says so in the clock it
    // serves this time-stamper, the only one in which a whole count falls)
    wire             dx_one  = SHARED != 0 ? w_one : dx_q == X_ONE;
    wire             lx_one  = SHARED != 0 ? w_one : lx_q == L_ONE;
    wire             x_slot  = SHARED == 0 || wx_slot;
    wire             l_slot  = SHARED == 0 || wl_slot;

    // OS info field {type, value}, zero-extended to INFO_W
    function [INFO_W-1:0] os_info(input [TYPE_W-1:0] t, input [VAL_W-1:0] v);
        os_info = {{(INFO_W-TYPE_W-VAL_W){1'b0}}, t, v};
    endfunction

    // One record a cycle at most, in this priority order.
    wire wr_ext  = room && over && x_slot;  // a TIME_EXT that waited for room: never dropped
    wire wr_lost = room && !over && lost_nz && !first && (!lost_big || l_slot);
    wire wr_ev   = room && !over && (!lost_nz || first) && ev_valid;
    assign busy  = over;
    assign m_axis_tuser = !wr_ev;
    // (over next clock needs a tick at the rest's MAX, or over now)
    assign due   = tick && dr_max;
    wire wr_end  = room && !over && !lost_nz && !ev_valid && fl_q;
    // idle for 2^NT-1 ticks: TIME_EXT now, so an event next cycle fits
    wire wr_max  = room && !over && !lost_nz && !ev_valid && !fl_q && atmax;

    always @* begin
        pre_d         = tick ? {PW{1'b0}} : pre_q + 1'b1;
        m_axis_tvalid = wr_ext || wr_lost || wr_ev || wr_end || wr_max;
        if (FILL != 0) begin
            // a record made here (m_axis_tuser) leaves out its fixed
            // fields, a TIME_EXT's delta (MAXD) and the zero value of
            // TIME_EXT and END: only the type is chosen
            m_axis_tdata = {1'b1, dr_q, os_info(wr_lost ? T_LOST : wr_end ? T_END : T_EXT,
                                                lost_out)};
            if (wr_ev)
                m_axis_tdata = {ev_os, dr_q, ev_info};
        end else begin
            // (over is 0 unless wr_ext: a record's delta is the rest, dr_q)
            m_axis_tdata = {1'b1, dr_q, os_info(T_EXT, {VAL_W{1'b0}})};
            if (wr_ext)
                m_axis_tdata = {1'b1, MAXD, os_info(T_EXT, {VAL_W{1'b0}})};
            else if (wr_lost)
                m_axis_tdata = {1'b1, dr_q, os_info(T_LOST, lost_out)};
            else if (wr_ev)
                m_axis_tdata = {ev_os, dr_q, ev_info};
            else if (wr_end)
                m_axis_tdata = {1'b1, dr_q, os_info(T_END, {VAL_W{1'b0}})};
        end
        drop = (ev_valid && !wr_ev) || ev_lost;

        // Ticks: a record restarts the count, a waiting TIME_EXT takes a
        // whole one; each tick steps the rest. The count saturates (time is
        // exact below 2^DT_W - 2^XW ticks).
        dx_d = dx_q;
        dr_d = dr_q;
        ov_d = ov_q;
        dm_d = dm_q;
        if (wr_ext) begin
            if (!(tick && dr_max)) begin
                dx_d = dx_step;     // room: minus one
                ov_d = !dx_one;
            end
            if (tick) begin
                dr_d = dr_step;
                dm_d = dr_pre;
            end
        end else if (wr_lost || wr_ev || wr_end || wr_max) begin
            dx_d = {XW{1'b0}};
            dr_d = {{(NT-1){1'b0}}, tick};
            ov_d = 1'b0;
            dm_d = 1'b0;            // (NT >= 2)
        end else if (tick && !dt_sat) begin
            if (dr_max) begin
                dx_d = dx_step;     // no room: plus one
                ov_d = 1'b1;
            end
            dr_d = dr_step;
            dm_d = dr_pre;
        end

        // Drops: a LOST record takes a whole one (or the rest); each drop
        // steps the rest.
        lx_d = lx_q;
        lr_d = lr_q;
        lb_d = lb_q;
        ln_d = ln_q || drop;        // a step of the rest never gives 0
        if (wr_lost && lost_big) begin
            if (!(drop && lr_max)) begin
                lx_d = lx_step;     // minus one
                lb_d = !lx_one;
            end
            lr_d = drop ? lr_step : lr_q;
        end else if (wr_lost) begin
            lr_d = {{(VAL_W-1){1'b0}}, drop};
            ln_d = drop;
        end else if (drop && !lost_sat) begin
            if (lr_max) begin
                lx_d = lx_step;     // plus one
                lb_d = 1'b1;
            end
            lr_d = lr_step;
        end

        fl_d = (fl_q && !wr_end) || flush;
    end

    // each step of a whole count, as the branches above take it
    assign wx_dec = SHARED != 0 && wr_ext && !(tick && dr_max);
    assign wx_inc = SHARED != 0 && !m_axis_tvalid && tick && dr_max;
    assign wl_dec = SHARED != 0 && wr_lost && lost_big && !(drop && lr_max);
    assign wl_inc = SHARED != 0 && !wr_lost && drop && lr_max;

    always @(posedge clk) begin
        if (rst) begin
            pre_q <= {PW{1'b0}};
            dx_q  <= {XW{1'b0}};
            dr_q  <= {NT{1'b0}};
            lx_q  <= {LX{1'b0}};
            lr_q  <= {VAL_W{1'b0}};
            fl_q  <= 1'b0;
            ov_q  <= 1'b0;
            dm_q  <= 1'b0;
            lb_q  <= 1'b0;
            ln_q  <= 1'b0;
        end else begin
            pre_q <= pre_d;
            dx_q  <= dx_d;
            dr_q  <= dr_d;
            lx_q  <= lx_d;
            lr_q  <= lr_d;
            fl_q  <= fl_d;
            ov_q  <= ov_d;
            dm_q  <= dm_d;
            lb_q  <= lb_d;
            ln_q  <= ln_d;
        end
    end

`ifdef FORMAL
    assign f_dx = dx_q;
    assign f_dr = dr_q;
    assign f_lx = lx_q;
    assign f_lr = lr_q;
`endif

`ifdef TRC_ASSERT
    // The rests are >= 1 while a whole record waits (so "over" and
    // "lost_big" mean count > MAX), and a record goes out only with room.
    always @(posedge clk) begin
        if (!rst) begin
            assert (!m_axis_tvalid || m_axis_tready)
                `TRC_ELSE("%m: record written without room");
            // (trc_tstamp_fill tells its records apart by two type bits)
            assert (!m_axis_tvalid || !m_axis_tuser ||
                    (m_axis_tdata[NT+INFO_W] && (m_axis_tdata[VAL_W +: TYPE_W] == T_EXT ||
                     m_axis_tdata[VAL_W +: TYPE_W] == T_END || m_axis_tdata[VAL_W +: TYPE_W] == T_LOST)))
                `TRC_ELSE("%m: a record made here is not a TIME_EXT, END or LOST");
            assert (dm_q == (dr_q == MAXD) && ln_q == (lr_q != {VAL_W{1'b0}}) &&
                    (SHARED != 0 || (ov_q == (dx_q != {XW{1'b0}}) &&
                                     lb_q == (lx_q != {LX{1'b0}}))))
                `TRC_ELSE("%m: a decision flag disagrees with its counter");
            assert (SHARED != 0 || !wx_slot && !wl_slot && !w_one)
                `TRC_ELSE("%m: the shared unit's inputs are not tied off");
            assert (!over || dr_q != {NT{1'b0}})
                `TRC_ELSE("%m: whole TIME_EXT pending with no rest");
            assert (!lost_big || lr_q != {VAL_W{1'b0}})
                `TRC_ELSE("%m: whole LOST pending with no rest");
        end
    end
`endif

endmodule

`resetall
