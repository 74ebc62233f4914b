module.exports = {
  displayName: 'task-logging',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/task-logging',
};
