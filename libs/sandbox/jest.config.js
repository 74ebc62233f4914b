module.exports = {
  displayName: 'sandbox',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/sandbox',
};
