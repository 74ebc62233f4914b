module.exports = {
  displayName: 'fake-llm',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/fake-llm',
};
