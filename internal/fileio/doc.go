// Package fileio reads and writes the files drrc's users name, safely: a read takes a regular file (never a
// device, a FIFO or a folder, which could be endless or block) of bounded size, and a write replaces a file
// atomically, so that no failure, and no kill, leaves a partial file under the user's name.
//
// Reads: ReadFile and ReadAll fail with a *TooLargeError past their limit and Open with a *NotRegularError for
// anything but a regular file; callers choose the limit (drr.MaxFileSize for rule files, pirfile.MaxFileSize for
// programs, both raised by drrc's -max-file-size).
//
// Writes: WriteAtomic writes into a temporary file in the target's folder and renames it over the target. On Linux
// the temporary file has no name until its content is complete (O_TMPFILE), so a kill during the write leaves
// nothing behind; elsewhere, and between the link and the rename, it is named .NAME.drrc-PID.tmp, and WriteAtomic
// removes such files of processes that no longer run. A file with several hard links is rewritten in place
// instead, so that every link sees the new content.
package fileio
