import { configure } from '@testing-library/react';

// Two shared cores: the first render of Fluent UI trees can take longer than Testing Library's 1 s.
configure({ asyncUtilTimeout: 5000 });
