#!/usr/bin/env node
// A reader that goes away (`robotskit lint big.txt | head -1`) ends the command quietly, as other command-line tools
// do (exit 0, as `batch` does); any other failure to write is one line, never a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && stream === process.stdout) {
      process.stderr.write(`robotskit: cannot write the output: ${error.message}\n`);
      process.exit(2);
    }
    process.exit(0);
  });
}

const { main } = await import('../dist/main.js');
process.exitCode = await main(process.argv.slice(2));
