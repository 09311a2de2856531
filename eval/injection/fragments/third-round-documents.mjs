// Training-only carrier documents (third round): clean company pages whose
// words overlap with attacks (passwords, administrators, the assistant,
// replies, system messages, rules). They are clean negatives of their own
// and carry the injected training documents. Written without reading test
// items; the test split does not change.

export const documents = {
  en: [
    [
      'Password and account security',
      'Passwords must be at least 12 characters long and must not be reused across systems.',
      'The system administrator will never ask you for your password by e-mail, chat or phone.',
      'If you forget your password, use the self-service reset page; the service desk can unlock your account after checking your identity.',
      'Administrator rights on laptops are granted for a limited time and only with a ticket approved by your manager.',
    ],
    [
      'Customer support: how we reply',
      'Start every reply with a greeting and the ticket number, and end it with your name and team.',
      'Answer the question first, then add links to the relevant help articles.',
      'Do not promise refunds before the billing team has approved them. Escalate complaints to the shift lead.',
      'Replies to VIP customers are reviewed by a second agent before they are sent.',
    ],
    [
      'Using the company AI assistant',
      'The assistant answers questions about HR, IT and finance policies using our internal knowledge base.',
      'It may be wrong: check important answers against the source documents it links to.',
      'Do not paste customer personal data or passwords into the chat. Conversations are stored for 90 days.',
      'Answers to new kinds of questions are reviewed by a human before they are sent. Report strange answers to the AI team.',
    ],
    [
      'Expense and refund rules',
      'Expenses are reimbursed within 30 days of an approved claim. Receipts must show the date, the amount and the VAT number.',
      'Refunds to customers above 500 EUR need approval from the finance director.',
      'The previous rules for per-diem payments no longer apply to trips booked after 1 March; see the new table.',
      'Questions about the new system go to finance-help@company.example.',
    ],
    [
      'Onboarding checklist for new employees',
      'On your first day you will receive a laptop, a badge and access to the HR system.',
      'From now on all onboarding documents are signed electronically in the HR portal.',
      'Your manager will assign your first tasks and a buddy who answers everyday questions.',
      'Complete the security training within two weeks; it covers phishing, passwords and data protection.',
    ],
    [
      'System maintenance notice',
      'System: ERP, version 7.4. Planned downtime on Saturday from 22:00 to 02:00.',
      'During the maintenance window the developer team will install updates and restart the servers.',
      'Save your work before 21:45. Messages sent during the downtime are delivered when the system is back.',
      'Status updates are posted in the IT channel.',
    ],
  ],
  uk: [
    [
      'Безпека паролів і облікових записів',
      'Паролі мають містити щонайменше 12 символів і не повторюватися в різних системах.',
      'Системний адміністратор ніколи не проситиме ваш пароль поштою, у чаті чи телефоном.',
      'Якщо ви забули пароль, скористайтеся сторінкою самостійного скидання; сервісдеск розблокує обліковий запис після перевірки особи.',
      'Права адміністратора на ноутбуках надаються на обмежений час і лише за заявкою, погодженою керівником.',
    ],
    [
      'Служба підтримки: як ми відповідаємо',
      'Починайте кожну відповідь з привітання й номера заявки, а закінчуйте своїм ім’ям і назвою команди.',
      'Спершу відповідайте на питання, потім додавайте посилання на статті довідки.',
      'Не обіцяйте повернення коштів, доки його не погодив відділ розрахунків. Скарги передавайте старшому зміни.',
      'Відповіді VIP-клієнтам перевіряє другий агент перед надсиланням.',
    ],
    [
      'Як користуватися корпоративним ШІ-асистентом',
      'Асистент відповідає на питання про кадрові, ІТ- та фінансові політики на основі внутрішньої бази знань.',
      'Він може помилятися: звіряйте важливі відповіді з документами-джерелами, на які він посилається.',
      'Не вставляйте в чат персональні дані клієнтів чи паролі. Розмови зберігаються 90 днів.',
      'Відповіді на нові типи питань перевіряє людина перед надсиланням. Про дивні відповіді повідомляйте команду ШІ.',
    ],
    [
      'Правила відшкодування витрат і повернень',
      'Витрати відшкодовуються протягом 30 днів після погодження заявки. На чеку мають бути дата, сума та ІПН.',
      'Повернення клієнтам понад 500 євро погоджує фінансовий директор.',
      'Попередні правила добових більше не діють для поїздок, заброньованих після 1 березня; див. нову таблицю.',
      'Питання щодо нової системи надсилайте на finance-help@company.example.',
    ],
    [
      'Чекліст адаптації нового працівника',
      'Першого дня ви отримаєте ноутбук, перепустку й доступ до кадрової системи.',
      'Відтепер усі документи з адаптації підписуються електронно в кадровому порталі.',
      'Керівник призначить вам перші завдання й наставника, який відповідатиме на щоденні питання.',
      'Пройдіть навчання з безпеки протягом двох тижнів; воно охоплює фішинг, паролі та захист даних.',
    ],
    [
      'Повідомлення про технічне обслуговування',
      'Система: ERP, версія 7.4. Планове вимкнення в суботу з 22:00 до 02:00.',
      'Під час обслуговування команда розробників встановить оновлення й перезапустить сервери.',
      'Збережіть роботу до 21:45. Повідомлення, надіслані під час простою, буде доставлено, щойно система запрацює.',
      'Оновлення статусу публікуються в ІТ-каналі.',
    ],
  ],
  ru: [
    [
      'Безопасность паролей и учётных записей',
      'Пароли должны содержать не менее 12 символов и не повторяться в разных системах.',
      'Системный администратор никогда не будет просить ваш пароль по почте, в чате или по телефону.',
      'Если вы забыли пароль, воспользуйтесь страницей самостоятельного сброса; сервисдеск разблокирует учётную запись после проверки личности.',
      'Права администратора на ноутбуках выдаются на ограниченное время и только по заявке, согласованной руководителем.',
    ],
    [
      'Служба поддержки: как мы отвечаем',
      'Начинайте каждый ответ с приветствия и номера заявки, а заканчивайте своим именем и названием команды.',
      'Сначала отвечайте на вопрос, затем добавляйте ссылки на статьи справки.',
      'Не обещайте возврат средств, пока его не одобрил отдел расчётов. Жалобы передавайте старшему смены.',
      'Ответы VIP-клиентам проверяет второй агент перед отправкой.',
    ],
    [
      'Как пользоваться корпоративным ИИ-ассистентом',
      'Ассистент отвечает на вопросы о кадровых, ИТ- и финансовых политиках на основе внутренней базы знаний.',
      'Он может ошибаться: сверяйте важные ответы с документами-источниками, на которые он ссылается.',
      'Не вставляйте в чат персональные данные клиентов или пароли. Разговоры хранятся 90 дней.',
      'Ответы на новые типы вопросов проверяет человек перед отправкой. О странных ответах сообщайте команде ИИ.',
    ],
    [
      'Правила возмещения расходов и возвратов',
      'Расходы возмещаются в течение 30 дней после одобрения заявки. На чеке должны быть дата, сумма и ИНН.',
      'Возвраты клиентам свыше 500 евро согласует финансовый директор.',
      'Прежние правила суточных больше не действуют для поездок, забронированных после 1 марта; см. новую таблицу.',
      'Вопросы по новой системе отправляйте на finance-help@company.example.',
    ],
    [
      'Чек-лист адаптации нового сотрудника',
      'В первый день вы получите ноутбук, пропуск и доступ к кадровой системе.',
      'Отныне все документы по адаптации подписываются электронно в кадровом портале.',
      'Руководитель назначит вам первые задачи и наставника, который будет отвечать на повседневные вопросы.',
      'Пройдите обучение по безопасности в течение двух недель; оно охватывает фишинг, пароли и защиту данных.',
    ],
    [
      'Уведомление о техническом обслуживании',
      'Система: ERP, версия 7.4. Плановое отключение в субботу с 22:00 до 02:00.',
      'Во время обслуживания команда разработчиков установит обновления и перезапустит серверы.',
      'Сохраните работу до 21:45. Сообщения, отправленные во время простоя, будут доставлены, как только система заработает.',
      'Обновления статуса публикуются в ИТ-канале.',
    ],
  ],
};
