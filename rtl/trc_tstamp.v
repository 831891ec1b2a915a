// trc_tstamp: time-stamper of trc_core. Turns untimed events (a valid strobe
// that cannot be stalled) into raw records with the ticks since the previous
// record; writes TIME_EXT while no event comes and the delta reaches 2^NT-1,
// LOST (the count of events dropped on a full FIFO) as soon as there is room
// (several LOST records when the count exceeds 2^VAL_W-1),
// and END on flush. Absolute time stays exact: waiting records keep their
// ticks in a DT_W-bit counter (docs/rtl.md).
// Parameters:
//   NT, TYPE_W, VAL_W, INFO_W - format widths (INFO_W as in trc_enc)
//   PRESCALE                  - clock cycles per tick, >= 1
//   DT_W                      - ticks counter width, > NT
`default_nettype none

module trc_tstamp #(
    parameter NT       = 23,
    parameter TYPE_W   = 7,
    parameter VAL_W    = 16,
    parameter INFO_W   = 23,
    parameter PRESCALE = 1,
    parameter DT_W     = 48
) (
    input  wire              clk,
    input  wire              rst,
    // ---- events from the target
    input  wire              ev_valid,
    input  wire              ev_os,     // 0 function, 1 OS info
    input  wire [INFO_W-1:0] ev_info,   // same layout as trc_enc's info field
    input  wire              flush,     // write END (held until written)
    output reg               drop,      // an event was dropped this cycle
    // ---- records to the FIFO
    output reg  [NT+INFO_W:0] m_axis_tdata,
    output reg               m_axis_tvalid,
    input  wire              m_axis_tready
);

    localparam PW = PRESCALE > 1 ? $clog2(PRESCALE) : 1;
    localparam integer PRE_LAST_I = PRESCALE - 1;
    localparam [PW-1:0]     PRE_LAST = PRE_LAST_I[PW-1:0];
    localparam [DT_W-1:0]   MAXD     = {{(DT_W-NT){1'b0}}, {NT{1'b1}}};
    localparam [TYPE_W-1:0] T_EXT    = {TYPE_W{1'b1}};
    localparam [TYPE_W-1:0] T_END    = {TYPE_W{1'b1}} - 1'b1;
    localparam [TYPE_W-1:0] T_LOST   = {TYPE_W{1'b1}} - {{(TYPE_W-3){1'b0}}, 3'd3};
    // Dropped events are counted in LW bits (exact up to 2^LW-1 drops before
    // a LOST record gets out); a LOST record carries at most 2^VAL_W-1.
    localparam LW = 48;
    localparam [LW-1:0]     VMAX     = {{(LW-VAL_W){1'b0}}, {VAL_W{1'b1}}};

    reg [PW-1:0]    pre_q, pre_d;
    reg [DT_W-1:0]  dt_q, dt_d;    // ticks since the last record written
    reg [LW-1:0]    lost_q, lost_d;
    wire            lost_big = lost_q > VMAX;
    wire [LW-1:0]   lost_out = lost_big ? VMAX : lost_q;
    reg             fl_q, fl_d;

    wire tick  = pre_q == PRE_LAST;
    wire room  = m_axis_tready;
    wire over  = dt_q > MAXD;
    wire atmax = dt_q == MAXD;

    // OS info field {type, value}, zero-extended to INFO_W
    function [INFO_W-1:0] os_info(input [TYPE_W-1:0] t, input [VAL_W-1:0] v);
        os_info = {{(INFO_W-TYPE_W-VAL_W){1'b0}}, t, v};
    endfunction

    reg [DT_W-1:0] dt_next;
    reg            ev_taken, lost_clr, fl_clr;
    always @* begin
        pre_d         = tick ? {PW{1'b0}} : pre_q + 1'b1;
        m_axis_tvalid = 1'b0;
        m_axis_tdata  = {1'b1, dt_q[NT-1:0], os_info(T_EXT, {VAL_W{1'b0}})};
        dt_next       = dt_q;
        ev_taken      = 1'b0;
        lost_clr      = 1'b0;
        fl_clr        = 1'b0;
        if (room) begin
            if (over) begin
                // A TIME_EXT that had to wait for room: exact, never dropped.
                m_axis_tvalid = 1'b1;
                m_axis_tdata  = {1'b1, MAXD[NT-1:0], os_info(T_EXT, {VAL_W{1'b0}})};
                dt_next       = dt_q - MAXD;
            end else if (lost_q != {LW{1'b0}}) begin
                m_axis_tvalid = 1'b1;
                m_axis_tdata  = {1'b1, dt_q[NT-1:0], os_info(T_LOST, lost_out[VAL_W-1:0])};
                dt_next       = {DT_W{1'b0}};
                lost_clr      = 1'b1;
            end else if (ev_valid) begin
                m_axis_tvalid = 1'b1;
                m_axis_tdata  = {ev_os, dt_q[NT-1:0], ev_info};
                dt_next       = {DT_W{1'b0}};
                ev_taken      = 1'b1;
            end else if (fl_q) begin
                m_axis_tvalid = 1'b1;
                m_axis_tdata  = {1'b1, dt_q[NT-1:0], os_info(T_END, {VAL_W{1'b0}})};
                dt_next       = {DT_W{1'b0}};
                fl_clr        = 1'b1;
            end else if (atmax) begin
                // Idle for 2^NT-1 ticks: TIME_EXT now, so an event next cycle fits.
                m_axis_tvalid = 1'b1;
                dt_next       = {DT_W{1'b0}};
            end
        end
        drop   = ev_valid && !ev_taken;
        // The tick counter saturates (time is exact below 2^DT_W-1 ticks).
        dt_d   = (tick && !(&dt_next)) ? dt_next + 1'b1 : dt_next;
        lost_d = lost_clr ? lost_q - lost_out : lost_q;
        if (drop && !(&lost_d))
            lost_d = lost_d + 1'b1;
        fl_d   = (fl_q && !fl_clr) || flush;
    end

    always @(posedge clk) begin
        if (rst) begin
            pre_q  <= {PW{1'b0}};
            dt_q   <= {DT_W{1'b0}};
            lost_q <= {LW{1'b0}};
            fl_q   <= 1'b0;
        end else begin
            pre_q  <= pre_d;
            dt_q   <= dt_d;
            lost_q <= lost_d;
            fl_q   <= fl_d;
        end
    end

`ifdef TRC_ASSERT
    always @(posedge clk) begin
        if (!rst)
            assert (!m_axis_tvalid || m_axis_tready)
                else $error("%m: record written without room");
    end
`endif

endmodule

`resetall
