module.exports = {
  displayName: 'rca-eval',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/rca-eval',
};
