// Preloaded into the CLI process bin/regoc.js starts: it exits once its parent is gone (its IPC
// channel closes), however the parent ended, so killing `regoc` by pid never leaves it running.
if (process.channel) {
  process.channel.unref();
  process.on("disconnect", () => process.exit(1));
}
