module.exports = {
  displayName: 'run-record',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/run-record',
};
