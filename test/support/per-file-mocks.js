/**
 * Jest's sandbox ended a file's spies with the file; the light runner's files share a thread, so a
 * spy left by one file (say on a class's prototype) must be restored before the next one runs. The
 * runner resets jest-circus's state for each file: a state not seen before is a new file.
 */
function restoringMocksPerFile(restoreAllMocks) {
  let fileState;
  return (_event, state) => {
    if (state === fileState) return;
    fileState = state;
    restoreAllMocks();
  };
}

module.exports = { restoringMocksPerFile };
