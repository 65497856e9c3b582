#pragma once
/// \file What the calls of a prepared program moved between the host and the device, and what
/// they allocated: the counters of device-resident execution (issue 23, item 1), which
/// `--stats` prints and the tests assert (the second call of a graph whose weights stay on the
/// device uploads only its other inputs).

#include <cstdint>

namespace fxkit {

struct TransferStats {
  int64_t calls = 0;        ///< runs of the program
  int64_t inputUploads = 0; ///< graph inputs copied host -> device
  int64_t inputUploadBytes = 0;
  /// Resident inputs whose device copy an earlier call left there (no copy).
  int64_t inputsKept = 0;
  int64_t outputReads = 0; ///< graph outputs copied device -> host
  int64_t outputReadBytes = 0;
  /// Other copies in either direction: buffers of extern ops run on the host, in-place writes
  /// returned to the caller's inputs, bisect's taps.
  int64_t otherCopies = 0;
  int64_t otherCopyBytes = 0;
  /// Device allocations made for the program's storage (inputs, the pool, own buffers); kept
  /// from call to call, so a steady state makes none.
  int64_t allocations = 0;
  /// Times the host waited for the device (the end of a call that reads its outputs).
  int64_t hostWaits = 0;
};

} // namespace fxkit
