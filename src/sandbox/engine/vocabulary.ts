// Word lists of the synthetic pool. Kept apart from the generator so that matching can use the same
// vocabulary (a skill the pool can hold is a skill a requirement can be matched against).

export interface Family {
  titles: readonly string[];
  skills: readonly string[];
}

export const FAMILIES: Readonly<Record<string, Family>> = {
  backend: {
    titles: ['Backend Engineer', 'Backend Developer', 'Software Engineer', 'Server Developer'],
    skills: [
      'Python',
      'Go',
      'Java',
      'Node.js',
      'PostgreSQL',
      'Kubernetes',
      'AWS',
      'Docker',
      'Kafka',
      'Redis',
      'Microservices',
      'REST APIs',
    ],
  },
  frontend: {
    titles: ['Frontend Engineer', 'Frontend Developer', 'UI Developer', 'Web Developer'],
    skills: [
      'React',
      'TypeScript',
      'JavaScript',
      'CSS',
      'Next.js',
      'Vue',
      'GraphQL',
      'Accessibility',
      'Webpack',
      'Storybook',
    ],
  },
  data: {
    titles: ['Data Engineer', 'Data Scientist', 'Data Analyst', 'Machine Learning Engineer'],
    skills: [
      'Python',
      'SQL',
      'Spark',
      'Airflow',
      'dbt',
      'Pandas',
      'Machine Learning',
      'Statistics',
      'Tableau',
      'BigQuery',
    ],
  },
  devops: {
    titles: ['DevOps Engineer', 'Site Reliability Engineer', 'Platform Engineer', 'Cloud Engineer'],
    skills: ['Kubernetes', 'Terraform', 'AWS', 'GCP', 'Linux', 'CI/CD', 'Prometheus', 'Ansible', 'Docker', 'Helm'],
  },
  product: {
    titles: ['Product Manager', 'Product Owner', 'Product Analyst'],
    skills: ['Roadmapping', 'Analytics', 'A/B Testing', 'Jira', 'User Research', 'SQL', 'B2B SaaS', 'Figma'],
  },
  qa: {
    titles: ['QA Engineer', 'Automation Engineer', 'Test Engineer'],
    skills: ['Selenium', 'Cypress', 'Playwright', 'Test Automation', 'API Testing', 'Python', 'Java', 'Jenkins'],
  },
};

export const SENIORITY = ['Junior', '', 'Senior', 'Lead', 'Principal'] as const;

/** City with its Hebrew spelling, so a Hebrew `location_text` matches as well. */
export const CITIES: ReadonlyArray<{ en: string; he: string }> = [
  { en: 'Tel Aviv', he: 'תל אביב' },
  { en: 'Jerusalem', he: 'ירושלים' },
  { en: 'Haifa', he: 'חיפה' },
  { en: "Be'er Sheva", he: 'באר שבע' },
  { en: 'Herzliya', he: 'הרצליה' },
  { en: 'Ramat Gan', he: 'רמת גן' },
  { en: 'Petah Tikva', he: 'פתח תקווה' },
  { en: 'Netanya', he: 'נתניה' },
  { en: 'Rishon LeZion', he: 'ראשון לציון' },
  { en: 'Rehovot', he: 'רחובות' },
  { en: "Ra'anana", he: 'רעננה' },
  { en: "Modi'in", he: 'מודיעין' },
  { en: 'Eilat', he: 'אילת' },
];

export const FIRST_NAMES = [
  'Dana',
  'Noa',
  'Yossi',
  'Avi',
  'Maya',
  'Omer',
  'Tamar',
  'Eitan',
  'Shira',
  'Daniel',
  'Michal',
  'Itai',
  'Yael',
  'Amit',
  'Roni',
  'Lior',
  'Nir',
  'Hila',
  'Adi',
  'Yonatan',
  'Keren',
  'Uri',
  'Efrat',
  'Ariel',
] as const;

export const LAST_NAMES = [
  'Cohen',
  'Levi',
  'Mizrahi',
  'Peretz',
  'Biton',
  'Dahan',
  'Friedman',
  'Katz',
  'Azoulay',
  'Goldberg',
  'Shapiro',
  'Ben-David',
  'Avraham',
  'Rosen',
  'Halevi',
  'Ohana',
  'Sasson',
  'Weiss',
] as const;

/** A share of the pool is written in Hebrew script: masking must replace those names too. */
export const HEBREW_NAMES = ['נועה כהן', 'יוסי לוי', 'מיכל מזרחי', 'איתי פרץ', 'שירה אוחנה', 'דניאל כץ'] as const;

export const COMPANIES = [
  'Orbit Labs',
  'Cedar Systems',
  'Bluefin Data',
  'Negev Robotics',
  'Harbor Analytics',
  'Lumen Health',
  'Quartz Payments',
  'Sabra Cloud',
  'Kinneret Software',
  'Galil Security',
  'Mosaic Retail',
  'Tamar Energy',
] as const;

export const LANGUAGES = ['Hebrew', 'English', 'Russian', 'Arabic', 'French', 'Amharic'] as const;

export const DEGREES = [
  'B.Sc. in Computer Science',
  'B.A. in Economics',
  'M.Sc. in Statistics',
  'B.Sc. in Industrial Engineering',
  'a coding bootcamp',
] as const;
