// trc_format.vh: the stream format's constants for the RTL (docs/format.md is
// the normative text), and the parameter check that every module uses.
// Include it after `default_nettype none; the include path is rtl/.
`ifndef TRC_FORMAT_VH
`define TRC_FORMAT_VH

// Width of a raw record's info field: a function record's exit flag and id,
// or an OS record's type and value, whichever is wider.
`define TRC_INFO_W(fid_w, type_w, val_w) \
    ((1 + (fid_w) > (type_w) + (val_w)) ? 1 + (fid_w) : (type_w) + (val_w))

// The four reserved OS info types at the top of the type range, each exactly
// tw bits wide (TYPE_W >= 3, so every replication count is at least 1).
`define TRC_T_TIME_EXT(tw) {(tw){1'b1}}
`define TRC_T_END(tw)      {{((tw)-1){1'b1}}, 1'b0}
`define TRC_T_SYNC(tw)     {{((tw)-2){1'b1}}, 2'b01}
`define TRC_T_LOST(tw)     {{((tw)-2){1'b1}}, 2'b00}

// Several CPUs (docs/format.md 4.8): the CPU switch code is the number
// (NT+1) * 2^E + cpu in NZ + E bits, E the fewest extra bits with
// (2^NZ - 1 - NT) * 2^E >= CPUs (the z values above NT, times 2^E); nb <= 8.
`define TRC_SW_EXT(nz, nt, nb) \
    ((((1 << (nz)) - 1 - (nt)) >= (nb)) ? 0 : \
     (2 * ((1 << (nz)) - 1 - (nt)) >= (nb)) ? 1 : \
     (4 * ((1 << (nz)) - 1 - (nt)) >= (nb)) ? 2 : 3)

// A parameter rule, used inside a generate region: when cond is false, a
// message where the tool can print one ($error at elaboration; Icarus has
// none), then an instance of a module that does not exist (stop, named after
// the parameter), which stops Verilator, Icarus and Yosys alike. msg names
// the module, since Verilator cannot print %m at elaboration.
`ifdef __ICARUS__
`define TRC_PARAM_MSG(msg)
`else
`define TRC_PARAM_MSG(msg) $error(msg);
`endif
`define TRC_PARAM_CHECK(cond, label, stop, msg) \
    if (!(cond)) begin : label \
        `TRC_PARAM_MSG(msg) \
        stop u_stop (); \
    end

`endif
