import { renderTemplate, TemplateError } from './text-template';

describe('renderTemplate', () => {
  it('fills in variables, keeps {{#flag}} sections when truthy and {{^flag}} sections when falsy', () => {
    const template = 'rc={{rc}} {{#long}}head={{head}}{{/long}}{{^long}}all={{all}}{{/long}}';

    expect(renderTemplate(template, { rc: 0, long: true, head: 'ab', all: 'abc' })).toBe('rc=0 head=ab');
    expect(renderTemplate(template, { rc: 1, long: false, head: 'ab', all: 'abc' })).toBe('rc=1 all=abc');
  });

  it('inserts values verbatim, never expanding what they contain', () => {
    expect(renderTemplate('<{{output}}>', { output: '{{output}} {{#x}}' })).toBe('<{{output}} {{#x}}>');
  });

  it('refuses a variable that was not given, naming the template', () => {
    const render = () => renderTemplate('{{missing}}', {}, 'observation');

    expect(render).toThrow('template observation uses {{missing}}, which was not given');
    expect(render).toThrow(TemplateError);
  });
});
