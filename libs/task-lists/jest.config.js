module.exports = {
  displayName: 'task-lists',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/task-lists',
};
