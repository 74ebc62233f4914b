module.exports = {
  displayName: 'viewer',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/viewer',
};
