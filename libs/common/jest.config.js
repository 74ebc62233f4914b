module.exports = {
  displayName: 'common',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/common',
};
