/**
 * What the command says about itself: its home page (package.json's `homepage`, the package on the registry), named in
 * its User-Agent and in SARIF logs.
 */
export const CLI_HOME = 'https://www.npmjs.com/package/robotskit-cli';
