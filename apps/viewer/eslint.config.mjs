import baseConfig from '../../eslint.config.mjs';

export default [
  ...baseConfig,
  {
    // The page's modules run in the browser.
    files: ['src/public/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        window: 'readonly',
        document: 'readonly',
        customElements: 'readonly',
        HTMLElement: 'readonly',
        fetch: 'readonly',
        location: 'readonly',
        history: 'readonly',
        URLSearchParams: 'readonly',
        performance: 'readonly',
      },
    },
  },
];
