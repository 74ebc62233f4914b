module.exports = {
  displayName: 'loc-json',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/loc-json',
};
